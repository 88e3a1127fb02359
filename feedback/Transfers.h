// Pass: data transfers between host and device (thesis section 3.5,
// Table 3.2 accelerator row).
//
// Needs: a checked function (Decl::is_read / is_written set on its
//   parameters) and its hardware model.
// Does: only where the description has a host link
//   (HardwareModel::host_link(): an interconnect between the device and
//   something outside it), it sums the sizes of the parameters:
//   - to the device: every parameter that is read (a `+=` target is read);
//   - from the device: every parameter that is written.
//   An array's size is its element size times the product of the extents
//   of its (first) declared form, symbolically in the kernel's parameters;
//   a scalar counts only when it is written (a scalar read by value travels
//   with the launch, not as a transfer). Element sizes: float 4, double 8,
//   int 4, byte 1, bool 1, records the sum of their fields. When the link
//   has a finite bandwidth the time bytes / bandwidth is given in seconds;
//   the link's latency is in cycles, which cannot be added to seconds
//   without a clock, so it is only mentioned.
// Guarantees: at most one remark per direction, at the function's name,
//   with quantities "bytes_to_device" / "bytes_from_device" and, with a
//   bandwidth, "seconds_to_device" / "seconds_from_device". A parameter
//   whose size cannot be expressed is named in the message and makes the
//   remark approximate. No remark without a host link (perfect, cpu).
#pragma once

#include <vector>

#include "feedback/FeedbackPass.h"

namespace mcl::feedback {

std::vector<Remark> transfers_pass(const FeedbackInput& in);

}  // namespace mcl::feedback
