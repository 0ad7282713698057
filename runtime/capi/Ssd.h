// The Mamba-2 forward pass of the C API (tilecc_ssd_plan, tilecc_ssd_forward): DLPack tensors
// and C options turned into mamba2::ssdForwardInto's arrays and options.
#pragma once

#include "runtime/capi/Context.h"
#include "tile/c/tilecc.h"

#include <string>

namespace tile::capi {

/// The outputs' dtypes and shapes for these inputs, as tilecc_ssd_plan's JSON.
std::string ssdPlanJson(const DLTensor *const *inputs, const tilecc_ssd_options *options);

/// Runs the pass on `context`'s backend into `outputs`, queued on `stream`.
void ssdForward(Context &context, const DLTensor *const *inputs, const DLTensor *const *outputs,
                const tilecc_ssd_options *options, void *stream);

void ssdBackward(Context &context, const DLTensor *const *inputs, const DLTensor *dy, const DLTensor *dFinalStates,
                 const DLTensor *const *gradients, const tilecc_ssd_options *options, void *stream);

void ssdVarlenStates(Context &context, const DLTensor *const *inputs, const DLTensor *const *outputs,
                     const DLTensor *cuSeqlens, const DLTensor *varlenStates, const tilecc_ssd_options *options,
                     void *stream);

} // namespace tile::capi
