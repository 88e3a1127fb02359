#include "feedback/Remark.h"

namespace mcl::feedback {

const char* remark_kind_name(RemarkKind k) {
    switch (k) {
    case RemarkKind::Operations: return "operations";
    case RemarkKind::ArithmeticIntensity: return "arithmetic-intensity";
    case RemarkKind::Transfers: return "transfers";
    case RemarkKind::DataReuse: return "data-reuse";
    case RemarkKind::FasterMemory: return "faster-memory";
    case RemarkKind::Cache: return "cache";
    case RemarkKind::ScarceResource: return "scarce-resource";
    case RemarkKind::Occupancy: return "occupancy";
    case RemarkKind::Coalescing: return "coalescing";
    case RemarkKind::BankConflicts: return "bank-conflicts";
    case RemarkKind::Bound: return "bound";
    case RemarkKind::DeviceFill: return "device-fill";
    }
    return "operations";
}

}  // namespace mcl::feedback
