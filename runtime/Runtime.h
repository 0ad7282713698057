// The tile runtime core: everything an application needs to load and launch compiled kernels.
#pragma once

#include "runtime/Args.h"
#include "runtime/DLPack.h"
#include "runtime/DType.h"
#include "runtime/Device.h"
#include "runtime/DeviceBuffer.h"
#include "runtime/Error.h"
#include "runtime/Event.h"
#include "runtime/Kernel.h"
#include "runtime/KernelMetadata.h"
#include "runtime/Launch.h"
#include "runtime/LaunchPlan.h"
#include "runtime/Module.h"
#include "runtime/Stream.h"
