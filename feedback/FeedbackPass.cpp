#include "feedback/FeedbackPass.h"

#include "feedback/Bound.h"
#include "feedback/CacheBehaviour.h"
#include "feedback/DataReuse.h"
#include "feedback/DeviceFill.h"
#include "feedback/FasterMemory.h"
#include "feedback/MemoryAccessRules.h"
#include "feedback/OperationStatistics.h"
#include "feedback/ScarceResources.h"
#include "feedback/Transfers.h"

namespace mcl::feedback {

const std::vector<NamedPass>& feedback_passes() {
    static const std::vector<NamedPass> passes = {
        {"bound", bound_pass, RemarkKind::Bound},
        {"operation-statistics", operation_statistics, RemarkKind::Operations},
        {"transfers", transfers_pass, RemarkKind::Transfers},
        {"data-reuse", data_reuse_pass, RemarkKind::DataReuse},
        {"faster-memory", faster_memory_pass, RemarkKind::FasterMemory},
        {"cache-behaviour", cache_behaviour, RemarkKind::Cache},
        {"device-fill", device_fill_pass, RemarkKind::DeviceFill},
        {"scarce-resources", scarce_resources, RemarkKind::ScarceResource},
        {"memory-access-rules", memory_access_rules, RemarkKind::Coalescing},
    };
    return passes;
}

}  // namespace mcl::feedback
