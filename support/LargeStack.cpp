#include "support/LargeStack.h"

#include <pthread.h>

namespace mcl {

namespace {

struct Job {
    const std::function<int()>* work = nullptr;
    int result = 0;
    std::exception_ptr error;
};

void* run_job(void* argument) {
    auto* job = static_cast<Job*>(argument);
    try {
        job->result = (*job->work)();
    } catch (...) {
        job->error = std::current_exception();
    }
    return nullptr;
}

}  // namespace

int run_on_large_stack(const std::function<int()>& work) {
    Job job;
    job.work = &work;
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return work();
    pthread_t thread;
    bool started = pthread_attr_setstacksize(&attributes, kLargeStackBytes) == 0 &&
                   pthread_create(&thread, &attributes, run_job, &job) == 0;
    pthread_attr_destroy(&attributes);
    if (!started) return work();
    pthread_join(thread, nullptr);
    if (job.error) std::rethrow_exception(job.error);
    return job.result;
}

}  // namespace mcl
