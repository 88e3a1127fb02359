// The CUDA part of the MCL host-glue runtime: device choice, launch checks,
// device arrays and error text. Generated CUDA glue includes it; `mclc gen`
// copies it beside the generated files. Built on the CUDA runtime API
// (cuda_runtime.h); compile the glue with nvcc.
//
// Device choice (Device::get): MCL_CUDA_DEVICE=N picks device N (indices as
// `nvidia-smi -L` lists them); a choice that does not exist is an error.
// Otherwise device 0. Without any CUDA device every call throws mcl::Error.
//
// Device arrays: generated host functions allocate theirs on every call, so
// they come from a stream-ordered memory pool of the device's own (CUDA's
// cudaMallocAsync pools, not the device's default pool, which other code
// may tune), which keeps released memory for reuse up to a quarter of the
// device's memory or MCL_DEVICE_ARRAY_CACHE_MB. A device without memory
// pools, or a cache of 0, allocates with cudaMalloc and frees at once.
#ifndef MCL_CUDA_H
#define MCL_CUDA_H

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "mcl_runtime.h"

namespace mcl::cuda {

// "cudaMalloc: cudaErrorMemoryAllocation (out of memory)" for a CUDA error.
inline std::string error_text(cudaError_t status, const char* what) {
    return std::string(what) + ": " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")";
}

// Throws mcl::Error unless `status` is cudaSuccess; `what` names the call.
inline void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) throw Error(error_text(status, what));
}

// The device the kernels run on, with its properties.
class Device {
public:
    // The device (see the top of this file), chosen once for the whole program.
    static Device& get() {
        static std::mutex mutex;
        static Device* device = nullptr;
        std::lock_guard<std::mutex> lock(mutex);
        if (!device) device = new Device(choose());
        return *device;
    }

    // Makes this the current device of the calling host thread.
    void activate() const { check(cudaSetDevice(index_), "cudaSetDevice"); }

    int index() const { return index_; }
    const cudaDeviceProp& properties() const { return properties_; }
    std::string name() const { return properties_.name; }

    // Throws unless a launch of groups[d] blocks of items[d] threads per
    // dimension with `shared_bytes` of dynamic shared memory fits this
    // device: CUDA would otherwise refuse it or, for sizes beyond what its
    // dim3 holds, launch a different grid.
    void check_launch(const size_t groups[3], const size_t items[3], size_t shared_bytes) const {
        const char* axis = "xyz";
        size_t threads = 1;
        for (int d = 0; d < 3; ++d) {
            if (groups[d] > static_cast<size_t>(properties_.maxGridSize[d]))
                throw Error(std::to_string(groups[d]) + " blocks in grid dimension " + axis[d] + " exceed the " +
                            std::to_string(properties_.maxGridSize[d]) + " that " + name() + " allows");
            if (items[d] > static_cast<size_t>(properties_.maxThreadsDim[d]))
                throw Error(std::to_string(items[d]) + " threads in block dimension " + axis[d] + " exceed the " +
                            std::to_string(properties_.maxThreadsDim[d]) + " that " + name() + " allows");
            threads *= items[d];
        }
        if (threads > static_cast<size_t>(properties_.maxThreadsPerBlock))
            throw Error(std::to_string(threads) + " threads per block exceed the " +
                        std::to_string(properties_.maxThreadsPerBlock) + " that " + name() + " allows");
        if (shared_bytes > properties_.sharedMemPerBlockOptin)
            throw Error(std::to_string(shared_bytes) + " bytes of shared memory per block exceed the " +
                        std::to_string(properties_.sharedMemPerBlockOptin) + " that " + name() + " allows");
    }

    // Lets `kernel` (named `what` in errors) launch with `bytes` of dynamic
    // shared memory: beyond sharedMemPerBlock (48 KB) a kernel must opt in.
    // Generated kernels declare no static shared memory (every group array
    // is dynamic), and check_launch has already refused more than
    // sharedMemPerBlockOptin, so launches within 48 KB cost nothing here.
    template <typename Kernel>
    void allow_dynamic_shared(Kernel* kernel, size_t bytes, const char* what) const {
        if (bytes <= properties_.sharedMemPerBlock) return;
        check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
              what);
    }

    // `bytes` (> 0) of device memory, from the pool when there is one. When
    // the device is out of memory, the pool gives back what it keeps and
    // the allocation is tried again. Throws with `what` (an error's start).
    void* allocate(size_t bytes, const std::string& what) const {
        activate();
        void* data = nullptr;
        cudaError_t status = pool_ ? cudaMallocFromPoolAsync(&data, bytes, pool_, 0) : cudaMalloc(&data, bytes);
        if (status == cudaErrorMemoryAllocation && pool_) {
            cudaGetLastError();  // clear the failure before trying again
            check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
            check(cudaMemPoolTrimTo(pool_, 0), "cudaMemPoolTrimTo");
            status = cudaMallocFromPoolAsync(&data, bytes, pool_, 0);
        }
        if (status != cudaSuccess) {
            cudaGetLastError();
            throw Error(what + ": " + error_text(status, pool_ ? "cudaMallocFromPoolAsync" : "cudaMalloc"));
        }
        return data;
    }

    // Returns memory from allocate(); stream-ordered on the default stream,
    // after the work already queued there that may use it.
    void release(void* data) const {
        if (pool_)
            cudaFreeAsync(data, 0);
        else
            cudaFree(data);
    }

private:
    explicit Device(int index) : index_(index) {
        check(cudaGetDeviceProperties(&properties_, index_), "cudaGetDeviceProperties");
        int pools_supported = 0;
        check(cudaDeviceGetAttribute(&pools_supported, cudaDevAttrMemoryPoolsSupported, index_),
              "cudaDeviceGetAttribute");
        uint64_t cache_bytes = device_array_cache_bytes(properties_.totalGlobalMem / 4);
        if (!pools_supported || cache_bytes == 0) return;
        cudaMemPoolProps props{};
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = index_;
        check(cudaMemPoolCreate(&pool_, &props), "cudaMemPoolCreate");
        check(cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &cache_bytes),
              "cudaMemPoolSetAttribute");
    }

    static int choose() {
        int count = 0;
        cudaError_t status = cudaGetDeviceCount(&count);
        if (status != cudaSuccess) throw Error("no CUDA device: " + error_text(status, "cudaGetDeviceCount"));
        if (count == 0) throw Error("no CUDA device: cudaGetDeviceCount found none");
        const char* choice = std::getenv("MCL_CUDA_DEVICE");
        if (!choice) return 0;
        std::string text = choice;
        std::optional<unsigned long long> index = whole_number(text);
        if (!index) throw Error("MCL_CUDA_DEVICE='" + text + "' is not a device index (e.g. 0)");
        if (*index >= static_cast<unsigned long long>(count))
            throw Error("MCL_CUDA_DEVICE='" + text + "': there is no CUDA device " + text + " (" +
                        std::to_string(count) + " found)");
        return static_cast<int>(*index);
    }

    int index_;
    cudaDeviceProp properties_{};
    cudaMemPool_t pool_ = nullptr;  // null: cudaMalloc and cudaFree
};

// An array in the device's memory that stays there across launches (the
// resident-data API of generated glue). Movable, not copyable.
template <typename T>
class DeviceArray {
public:
    // `count` elements, uninitialised, or copied from `host` when given.
    DeviceArray(Device& device, size_t count, const T* host = nullptr) : device_(&device), count_(count) {
        // Keep one element for an empty array, so that data() is a valid pointer.
        data_ = static_cast<T*>(device.allocate(
            sizeof(T) * (count ? count : 1),
            "allocating " + std::to_string(sizeof(T) * count) + " bytes on " + device.name()));
        if (host && count) {
            try {
                upload(host);
            } catch (...) {
                release();
                throw;
            }
        }
    }

    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    DeviceArray(DeviceArray&& other) noexcept
        : device_(other.device_), count_(other.count_), data_(other.data_) {
        other.count_ = 0;
        other.data_ = nullptr;
    }
    DeviceArray& operator=(DeviceArray&& other) noexcept {
        if (this != &other) {
            release();
            device_ = other.device_;
            count_ = other.count_;
            data_ = other.data_;
            other.count_ = 0;
            other.data_ = nullptr;
        }
        return *this;
    }
    ~DeviceArray() { release(); }

    void upload(const T* host) {
        if (!count_) return;
        cudaError_t status = cudaMemcpy(data_, host, sizeof(T) * count_, cudaMemcpyHostToDevice);
        if (status != cudaSuccess)
            throw Error("copying to " + device_->name() + ": " + error_text(status, "cudaMemcpy"));
    }

    void download(T* host) const {
        if (!count_) return;
        cudaError_t status = cudaMemcpy(host, data_, sizeof(T) * count_, cudaMemcpyDeviceToHost);
        if (status != cudaSuccess)
            throw Error("copying from " + device_->name() + ": " + error_text(status, "cudaMemcpy"));
    }

    size_t size() const { return count_; }
    T* data() { return data_; }
    const T* data() const { return data_; }
    // The memory the array lies in (its own), null for none (a moved-from array).
    const void* memory() const { return data_; }
    Device& device() const { return *device_; }
    // Whether kernels on `device` can use the array: the same GPU.
    bool usable_on(const Device& device) const { return device_->index() == device.index(); }

private:
    void release() {
        if (data_) device_->release(data_);  // nothing to report from a destructor
        data_ = nullptr;
    }

    Device* device_;
    size_t count_;
    T* data_ = nullptr;
};

}  // namespace mcl::cuda

#endif  // MCL_CUDA_H
