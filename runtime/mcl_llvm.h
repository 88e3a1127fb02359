// The runtime that code from the llvm backend calls: a parallel loop on a
// persistent thread pool, and the record of the first fault of a kernel run.
// mclc links it for its JIT (backends/llvm/ParallelRuntime.cpp); `mclc gen
// --backend llvm` copies this file beside the object files it writes. A
// translation unit that defines MCL_LLVM_RUNTIME_IMPLEMENTATION before
// including it defines the functions, weakly (each module's generated glue
// does, and the linker keeps one); others only declare them.
//
// mcl_llvm_parallel_for(body, context, total) calls body(context, begin, end)
// on consecutive chunks covering [0, total) exactly once and returns when
// all have finished. Guarantees:
//   - one pool per process: a worker per hardware thread less the caller,
//     which takes part (MCL_NUM_THREADS, when a positive number, sets the
//     thread count); workers are started on first use; an idle worker
//     polls for the next job for about 100 microseconds, then parks on a
//     condition variable (kernels call parallel loops back to back, and a
//     parked thread takes tens of microseconds to wake); the caller likewise
//     polls for the last workers to finish before it parks;
//   - chunks of max(1, total / (8 * threads)) iterations, handed out in order
//     from an atomic counter (dynamic scheduling);
//   - total <= 0 calls nothing; a call from inside a body (nested
//     parallelism) or with a single chunk runs body(context, 0, total) in the
//     calling thread; calls from several threads of the application take
//     turns;
//   - fork() waits for a parallel loop in flight, so that the child inherits
//     no lock held by a worker; the child, which has none of the workers,
//     runs its parallel loops in its calling thread.
// mcl_llvm_fault(code, site) records a fault unless one is recorded already
// (the first wins, atomically, from any thread); mcl_llvm_take_fault reads
// and clears it. code is one of mcl_llvm_fault_code; site is the number that
// the lowering gave the faulting source location. The record is per process.
#ifndef MCL_LLVM_H
#define MCL_LLVM_H

#include <stdint.h>

enum mcl_llvm_fault_code : int32_t {
    mcl_llvm_fault_division_by_zero = 1,
    mcl_llvm_fault_division_overflow = 2,  // INT_MIN / -1 and its remainder
    mcl_llvm_fault_index_out_of_range = 3,
    mcl_llvm_fault_negative_size = 4,      // an array declared with a negative extent
    mcl_llvm_fault_call_depth = 5,         // calls nested deeper than the engine allows
};

extern "C" {
void mcl_llvm_parallel_for(void (*body)(void* context, int64_t begin, int64_t end), void* context, int64_t total);
void mcl_llvm_fault(int32_t code, int32_t site);
// Whether a fault was recorded; if so its code and site, and the record is
// cleared.
bool mcl_llvm_take_fault(int32_t* code, int32_t* site);
}

#ifdef MCL_LLVM_RUNTIME_IMPLEMENTATION

// Weak: the glue of every module of an application defines the runtime, and
// the linker keeps one definition (the pool and the fault record are
// function-local statics of inline functions, so they are one object too).
#define MCL_LLVM_WEAK __attribute__((weak))

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <pthread.h>
#include <thread>

namespace mcl::llvm_runtime {

class ThreadPool {
public:
    using Body = void (*)(void*, int64_t, int64_t);

    // Never destroyed: workers may still be parked when the process exits,
    // and destructors of other static objects may still run kernels.
    static ThreadPool& instance() {
        static ThreadPool* pool = new ThreadPool(thread_count());
        return *pool;
    }

    // The pool's threads, the caller included: MCL_NUM_THREADS when set to
    // a count, else one per hardware thread.
    static int thread_count() {
        if (const char* text = std::getenv("MCL_NUM_THREADS")) {
            char* end = nullptr;
            long count = std::strtol(text, &end, 10);
            if (end != text && *end == '\0' && count > 0 && count <= 4096) return static_cast<int>(count);
        }
        return std::max(1u, std::thread::hardware_concurrency());
    }

    void parallel_for(Body body, void* context, int64_t total) {
        if (total <= 0) return;
        int64_t threads = int64_t(worker_count_) + 1;
        int64_t chunk = std::max<int64_t>(1, total / (8 * threads));
        if (inside_parallel_for() || worker_count_ == 0 || chunk >= total) {
            body(context, 0, total);
            return;
        }
        std::lock_guard<std::mutex> one_job_at_a_time(submit_mutex_);
        Job job{body, context, total, chunk};
        {
            std::lock_guard<std::mutex> lock(mutex_);
            job_ = &job;
            generation_.fetch_add(1, std::memory_order_release);
        }
        job_posted_.notify_all();
        run_chunks(job);
        // Workers that have not joined by now find no job; the ones that did
        // hold the chunks still running.
        {
            std::lock_guard<std::mutex> lock(mutex_);
            job_ = nullptr;
        }
        auto all_left = [&] { return job.workers_inside.load(std::memory_order_acquire) == 0; };
        if (poll(all_left)) return;
        std::unique_lock<std::mutex> lock(mutex_);
        job_left_.wait(lock, all_left);
    }

private:
    struct Job {
        Body body;
        void* context;
        int64_t total;
        int64_t chunk;
        std::atomic<int64_t> next_begin{0};
        std::atomic<int> workers_inside{0};  // joins under mutex_, leaves without
    };

    // Checks `done` until it holds or about 100 microseconds have passed;
    // whether it holds.
    template <typename Done>
    static bool poll(Done done) {
        auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
        for (;;) {
            for (int i = 0; i < 64; ++i) {
                if (done()) return true;
                pause();
            }
            if (std::chrono::steady_clock::now() >= until) return done();
        }
    }

    static void pause() {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        asm volatile("yield");
#endif
    }

    explicit ThreadPool(int threads) : worker_count_(threads - 1) {
        pthread_atfork(&before_fork, &after_fork_in_parent, &after_fork_in_child);
        for (int i = 0; i < worker_count_; ++i) std::thread([this] { work(); }).detach();
    }

    // Fork handlers of the one pool (instance() made it; it is never destroyed).
    static void before_fork() {
        instance().submit_mutex_.lock();
        instance().mutex_.lock();
    }
    static void after_fork_in_parent() {
        instance().mutex_.unlock();
        instance().submit_mutex_.unlock();
    }
    static void after_fork_in_child() {
        instance().worker_count_ = 0;
        instance().mutex_.unlock();
        instance().submit_mutex_.unlock();
    }

    static bool& inside_parallel_for() {
        thread_local bool inside = false;
        return inside;
    }

    static void run_chunks(Job& job) {
        inside_parallel_for() = true;
        for (;;) {
            int64_t begin = job.next_begin.fetch_add(job.chunk, std::memory_order_relaxed);
            if (begin >= job.total) break;
            job.body(job.context, begin, std::min(job.total, begin + job.chunk));
        }
        inside_parallel_for() = false;
    }

    void work() {
        uint64_t seen_generation = 0;
        for (;;) {
            poll([&] { return generation_.load(std::memory_order_acquire) != seen_generation; });
            std::unique_lock<std::mutex> lock(mutex_);
            job_posted_.wait(lock, [&] {
                return job_ != nullptr && generation_.load(std::memory_order_relaxed) != seen_generation;
            });
            seen_generation = generation_.load(std::memory_order_relaxed);
            Job& job = *job_;
            job.workers_inside.fetch_add(1, std::memory_order_relaxed);
            lock.unlock();
            run_chunks(job);
            // The job lives in the caller's frame: not touched once left.
            if (job.workers_inside.fetch_sub(1, std::memory_order_acq_rel) == 1) {
                // Through the mutex, so that a caller between its check and
                // its wait does not miss the notification.
                lock.lock();
                lock.unlock();
                job_left_.notify_all();
            }
        }
    }

    int worker_count_;  // 0 in a forked child
    std::mutex submit_mutex_;
    std::mutex mutex_;
    std::condition_variable job_posted_;
    std::condition_variable job_left_;
    Job* job_ = nullptr;                  // guarded by mutex_; the job workers may join
    std::atomic<uint64_t> generation_{0};  // counts the jobs posted; written under mutex_
};

// Zero, or the first fault: its code in the high half, its site in the low.
inline std::atomic<uint64_t>& fault_record() {
    static std::atomic<uint64_t> record{0};
    return record;
}

}  // namespace mcl::llvm_runtime

extern "C" MCL_LLVM_WEAK void mcl_llvm_parallel_for(void (*body)(void*, int64_t, int64_t), void* context, int64_t total) {
    mcl::llvm_runtime::ThreadPool::instance().parallel_for(body, context, total);
}

extern "C" MCL_LLVM_WEAK void mcl_llvm_fault(int32_t code, int32_t site) {
    uint64_t none = 0;
    uint64_t fault = (uint64_t(uint32_t(code)) << 32) | uint32_t(site);
    mcl::llvm_runtime::fault_record().compare_exchange_strong(none, fault);
}

extern "C" MCL_LLVM_WEAK bool mcl_llvm_take_fault(int32_t* code, int32_t* site) {
    uint64_t fault = mcl::llvm_runtime::fault_record().exchange(0);
    if (fault == 0) return false;
    *code = int32_t(uint32_t(fault >> 32));
    *site = int32_t(uint32_t(fault));
    return true;
}

#endif  // MCL_LLVM_RUNTIME_IMPLEMENTATION

#endif  // MCL_LLVM_H
