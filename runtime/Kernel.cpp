#include "runtime/Kernel.h"

#include "runtime/Native.h"

namespace tile::rt {

const KernelMetadata &Kernel::metadata() const { return state_->metadata; }
const DeviceLimits &Kernel::limits() const { return state_->limits; }
Device Kernel::device() const { return detail::Native::device(state_->module->device); }
int Kernel::numRegisters() const { return state_->numRegisters; }
int Kernel::staticSharedMemory() const { return state_->staticSharedMemory; }

} // namespace tile::rt
