#include "feedback/FeedbackPass.h"

#include "feedback/CacheBehaviour.h"
#include "feedback/MemoryAccessRules.h"
#include "feedback/ScarceResources.h"

#include "feedback/OperationStatistics.h"
#include "feedback/Transfers.h"
#include "feedback/DataReuse.h"
#include "feedback/FasterMemory.h"

namespace mcl::feedback {

const std::vector<NamedPass>& feedback_passes() {
    static const std::vector<NamedPass> passes = {
        {"operation-statistics", operation_statistics},
        {"transfers", transfers_pass},
        {"data-reuse", data_reuse_pass},
        {"faster-memory", faster_memory_pass},
        {"cache-behaviour", cache_behaviour},
        {"scarce-resources", scarce_resources},
        {"memory-access-rules", memory_access_rules},
    };
    return passes;
}

}  // namespace mcl::feedback
