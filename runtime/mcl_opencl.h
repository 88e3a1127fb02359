// The OpenCL part of the MCL host-glue runtime: device choice, program
// builds, device arrays and error text. Generated OpenCL glue includes it;
// `mclc gen` copies it beside the generated files. Built on the Khronos C++
// bindings (CL/opencl.hpp, package opencl-clhpp-headers); link with
// -lOpenCL (the ICD loader).
//
// Device choice (Device::for_type):
//   - MCL_OPENCL_DEVICE=P:D picks device D of platform P (indices as
//     `clinfo -l` lists them); a choice that does not exist is an error;
//   - otherwise the first device of the target's type ("gpu", "cpu",
//     "accelerator") over all platforms, falling back to the first device of
//     any type, so that GPU-level code runs on PoCL on a machine without a GPU.
// MCL_OPENCL_REQUIRE_CLEAN_BUILD=1 builds kernels with -Werror and treats a
// build log that mentions a warning as a failure (the tests use it).
// MCL_OPENCL_BUILD_OPTIONS adds options to every program build (for example
// -cl-opt-disable, to tell an OpenCL implementation's optimizer bug from a
// wrong kernel).
// Device arrays: generated host functions allocate theirs on every call, so
// a device keeps the buffers of released arrays for the next array of the
// same size (BufferCache), up to a quarter of its global memory or
// MCL_DEVICE_ARRAY_CACHE_MB.
#ifndef MCL_OPENCL_H
#define MCL_OPENCL_H

#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>

#include <cstdlib>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mcl_runtime.h"

namespace mcl::opencl {

// "clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11)" for an OpenCL error.
inline std::string error_text(const cl::Error& e) {
    static const std::map<cl_int, const char*> names = {
        {CL_DEVICE_NOT_FOUND, "CL_DEVICE_NOT_FOUND"},
        {CL_DEVICE_NOT_AVAILABLE, "CL_DEVICE_NOT_AVAILABLE"},
        {CL_MEM_OBJECT_ALLOCATION_FAILURE, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
        {CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES"},
        {CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY"},
        {CL_BUILD_PROGRAM_FAILURE, "CL_BUILD_PROGRAM_FAILURE"},
        {CL_INVALID_VALUE, "CL_INVALID_VALUE"},
        {CL_INVALID_DEVICE, "CL_INVALID_DEVICE"},
        {CL_INVALID_BUFFER_SIZE, "CL_INVALID_BUFFER_SIZE"},
        {CL_INVALID_KERNEL_NAME, "CL_INVALID_KERNEL_NAME"},
        {CL_INVALID_KERNEL_ARGS, "CL_INVALID_KERNEL_ARGS"},
        {CL_INVALID_ARG_SIZE, "CL_INVALID_ARG_SIZE"},
        {CL_INVALID_WORK_DIMENSION, "CL_INVALID_WORK_DIMENSION"},
        {CL_INVALID_WORK_GROUP_SIZE, "CL_INVALID_WORK_GROUP_SIZE"},
        {CL_INVALID_WORK_ITEM_SIZE, "CL_INVALID_WORK_ITEM_SIZE"},
        {CL_INVALID_GLOBAL_WORK_SIZE, "CL_INVALID_GLOBAL_WORK_SIZE"},
        {CL_MISALIGNED_SUB_BUFFER_OFFSET, "CL_MISALIGNED_SUB_BUFFER_OFFSET"},
        {CL_INVALID_BUILD_OPTIONS, "CL_INVALID_BUILD_OPTIONS"},
    };
    auto it = names.find(e.err());
    return std::string(e.what()) + ": " + (it == names.end() ? "OpenCL error" : it->second) + " (" +
           std::to_string(e.err()) + ")";
}

// Buffers that device arrays released, kept for the next array of the same
// byte size: a new buffer costs an allocation and, on a CPU device, the page
// faults of its first use, on every call of a generated host function. When
// the cache would hold more than its limit, the buffers released longest
// ago are freed. Thread-safe.
class BufferCache {
public:
    explicit BufferCache(size_t limit_bytes) : limit_(limit_bytes) {}

    // The buffer of `bytes` released last, or a null cl::Buffer when the
    // cache holds none of that size.
    cl::Buffer take(size_t bytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
            if (it->bytes != bytes) continue;
            cl::Buffer buffer = std::move(it->buffer);
            held_ -= bytes;
            entries_.erase(std::next(it).base());
            return buffer;
        }
        return cl::Buffer();
    }

    // Keeps `buffer` of `bytes`, which nobody uses any more.
    void give(cl::Buffer buffer, size_t bytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (bytes > limit_) return;
        entries_.push_back({bytes, std::move(buffer)});
        held_ += bytes;
        while (held_ > limit_) {
            held_ -= entries_.front().bytes;
            entries_.pop_front();
        }
    }

    // Frees every buffer held.
    void clear() {
        std::lock_guard<std::mutex> lock(mutex_);
        entries_.clear();
        held_ = 0;
    }

    size_t held_bytes() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return held_;
    }

private:
    struct Entry {
        size_t bytes;
        cl::Buffer buffer;
    };
    mutable std::mutex mutex_;
    size_t limit_;
    size_t held_ = 0;
    std::list<Entry> entries_;  // in the order released
};

// A device with its context, its queue, the programs built for it and the
// buffers its released arrays left.
class Device {
public:
    // The device for a target's device type (see the top of this file); one
    // per type for the whole program, created on first use.
    static Device& for_type(const std::string& type) {
        static std::mutex mutex;
        static std::map<std::string, std::unique_ptr<Device>> devices;
        std::lock_guard<std::mutex> lock(mutex);
        std::unique_ptr<Device>& d = devices[type];
        if (!d) d.reset(new Device(choose(type)));
        return *d;
    }

    // A device whose context and queue belong to someone else (a task
    // runtime's OpenCL worker); programs are still built once per device.
    Device(cl::Device device, cl::Context context, cl::CommandQueue queue)
        : device_(std::move(device)), context_(std::move(context)), queue_(std::move(queue)),
          buffers_(new_buffer_cache(device_)) {}

    const cl::Device& device() const { return device_; }
    cl::Context& context() { return context_; }
    const cl::Context& context() const { return context_; }
    cl::CommandQueue& queue() { return queue_; }
    std::string name() const { return device_.getInfo<CL_DEVICE_NAME>(); }

    // The program for `source`, built once; a failing build throws with the
    // build log.
    cl::Program& program(const std::string& name, const std::string& source) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = programs_.find(name);
        if (it != programs_.end()) return it->second;
        const char* strict_env = std::getenv("MCL_OPENCL_REQUIRE_CLEAN_BUILD");
        bool strict = strict_env && std::string(strict_env) == "1";
        std::string options = strict ? "-cl-std=CL1.2 -Werror" : "-cl-std=CL1.2";
        if (const char* extra = std::getenv("MCL_OPENCL_BUILD_OPTIONS")) options += std::string(" ") + extra;
        cl::Program program(context_, source);
        std::string log;
        try {
            program.build({device_}, options.c_str());
            log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_);
        } catch (const cl::Error& e) {
            log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_);
            throw Error("building OpenCL program '" + name + "' for " + this->name() + ": " + error_text(e) +
                        "\n" + log);
        }
        if (strict && log.find("warning") != std::string::npos)
            throw Error("building OpenCL program '" + name + "' for " + this->name() + " gave warnings:\n" + log);
        return programs_.emplace(name, std::move(program)).first->second;
    }

    // A read-write buffer of `bytes` (> 0), from the cache of released
    // buffers when it holds one of that size. When the device cannot
    // allocate it, the cache is emptied and the allocation tried again.
    cl::Buffer allocate(size_t bytes) {
        cl::Buffer cached = buffers_->take(bytes);
        if (cached()) return cached;
        try {
            return cl::Buffer(context_, CL_MEM_READ_WRITE, bytes);
        } catch (const cl::Error& e) {
            if (e.err() != CL_MEM_OBJECT_ALLOCATION_FAILURE && e.err() != CL_OUT_OF_RESOURCES &&
                e.err() != CL_OUT_OF_HOST_MEMORY)
                throw;
        }
        buffers_->clear();
        return cl::Buffer(context_, CL_MEM_READ_WRITE, bytes);
    }

    // Where arrays return their buffers; shared with them, so that an array
    // may outlive its device.
    const std::shared_ptr<BufferCache>& buffer_cache() const { return buffers_; }

private:
    explicit Device(cl::Device device)
        : device_(device), context_(device_), queue_(context_, device_), buffers_(new_buffer_cache(device_)) {}

    static std::shared_ptr<BufferCache> new_buffer_cache(const cl::Device& device) {
        size_t global_bytes = static_cast<size_t>(device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>());
        return std::make_shared<BufferCache>(device_array_cache_bytes(global_bytes / 4));
    }

    static cl::Device choose(const std::string& type) {
        std::vector<cl::Platform> platforms;
        try {
            cl::Platform::get(&platforms);
        } catch (const cl::Error& e) {
            throw Error("no OpenCL platform found: " + error_text(e));
        }
        if (platforms.empty()) throw Error("no OpenCL platform found");
        if (const char* choice = std::getenv("MCL_OPENCL_DEVICE")) return chosen(platforms, choice);
        cl_device_type wanted = type == "gpu" ? CL_DEVICE_TYPE_GPU
                                : type == "cpu" ? CL_DEVICE_TYPE_CPU
                                : type == "accelerator" ? CL_DEVICE_TYPE_ACCELERATOR
                                                        : CL_DEVICE_TYPE_ALL;
        for (cl_device_type t : {wanted, static_cast<cl_device_type>(CL_DEVICE_TYPE_ALL)}) {
            for (const cl::Platform& p : platforms) {
                std::vector<cl::Device> devices;
                try {
                    p.getDevices(t, &devices);
                } catch (const cl::Error&) {
                    continue;  // CL_DEVICE_NOT_FOUND: none of this type here
                }
                if (!devices.empty()) return devices.front();
            }
        }
        throw Error("no OpenCL device found on " + std::to_string(platforms.size()) + " platform(s)");
    }

    static cl::Device chosen(const std::vector<cl::Platform>& platforms, const std::string& choice) {
        size_t colon = choice.find(':');
        std::optional<unsigned long long> platform, device;
        if (colon != std::string::npos) {
            platform = whole_number(choice.substr(0, colon));
            device = whole_number(choice.substr(colon + 1));
        }
        if (!platform || !device)
            throw Error("MCL_OPENCL_DEVICE='" + choice + "' is not of the form PLATFORM:DEVICE (e.g. 0:0)");
        unsigned long long p = *platform, d = *device;
        if (p >= platforms.size())
            throw Error("MCL_OPENCL_DEVICE='" + choice + "': there is no OpenCL platform " + std::to_string(p) +
                        " (" + std::to_string(platforms.size()) + " found)");
        std::vector<cl::Device> devices;
        try {
            platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devices);
        } catch (const cl::Error& e) {
            throw Error("MCL_OPENCL_DEVICE='" + choice + "': " + error_text(e));
        }
        if (d >= devices.size())
            throw Error("MCL_OPENCL_DEVICE='" + choice + "': platform " + std::to_string(p) + " has no device " +
                        std::to_string(d) + " (" + std::to_string(devices.size()) + " found)");
        return devices[d];
    }

    cl::Device device_;
    cl::Context context_;
    cl::CommandQueue queue_;
    std::mutex mutex_;
    std::map<std::string, cl::Program> programs_;
    std::shared_ptr<BufferCache> buffers_;
};

// An array in a device's memory that stays there across launches (the
// resident-data API of generated glue). Copies share the buffer; when the
// last one goes, the buffer returns to its device's cache, so buffer() is
// valid only while an array holds it.
template <typename T>
class DeviceArray {
public:
    // `count` elements, uninitialised, or copied from `host` when given.
    DeviceArray(Device& device, size_t count, const T* host = nullptr) : device_(&device), count_(count) {
        try {
            // Zero-sized buffers are invalid in OpenCL: keep one element.
            size_t bytes = sizeof(T) * (count ? count : 1);
            buffer_ = device.allocate(bytes);
            lease_ = std::make_shared<Lease>(device.buffer_cache(), buffer_, bytes);
            if (host && count) upload(host);
        } catch (const cl::Error& e) {
            throw Error("allocating " + std::to_string(sizeof(T) * count) + " bytes on " + device.name() + ": " +
                        error_text(e));
        }
    }

    // `count` elements in `buffer`, which someone else allocated and fills
    // (a task runtime's copy of the data on this device).
    DeviceArray(Device& device, cl::Buffer buffer, size_t count)
        : device_(&device), count_(count), buffer_(std::move(buffer)) {}

    void upload(const T* host) {
        if (!count_) return;
        try {
            device_->queue().enqueueWriteBuffer(buffer_, CL_TRUE, 0, sizeof(T) * count_, host);
        } catch (const cl::Error& e) {
            throw Error("copying to " + device_->name() + ": " + error_text(e));
        }
    }

    void download(T* host) const {
        if (!count_) return;
        try {
            device_->queue().enqueueReadBuffer(buffer_, CL_TRUE, 0, sizeof(T) * count_, host);
        } catch (const cl::Error& e) {
            throw Error("copying from " + device_->name() + ": " + error_text(e));
        }
    }

    size_t size() const { return count_; }
    const cl::Buffer& buffer() const { return buffer_; }
    // The memory the array lies in, the same for arrays that share it (the
    // copies of one), null for none (a moved-from array).
    const void* memory() const { return buffer_(); }
    Device& device() const { return *device_; }
    // Whether kernels on `device` can use the array: OpenCL buffers belong
    // to a context.
    bool usable_on(const Device& device) const { return device_->context()() == device.context()(); }

private:
    // Gives an allocated buffer back to the cache when the last array that
    // holds it goes.
    struct Lease {
        Lease(std::shared_ptr<BufferCache> cache, cl::Buffer buffer, size_t bytes)
            : cache(std::move(cache)), buffer(std::move(buffer)), bytes(bytes) {}
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        ~Lease() {
            try {
                cache->give(std::move(buffer), bytes);
            } catch (...) {
                // Out of host memory for the cache's entry: the buffer is freed instead.
            }
        }
        std::shared_ptr<BufferCache> cache;
        cl::Buffer buffer;
        size_t bytes;
    };

    Device* device_;
    size_t count_;
    cl::Buffer buffer_;
    std::shared_ptr<Lease> lease_;  // null for a buffer someone else allocated
};

}  // namespace mcl::opencl

#endif  // MCL_OPENCL_H
