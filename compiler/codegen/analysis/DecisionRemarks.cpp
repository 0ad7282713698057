// One remark per product and per load of a lowered kernel, naming what the code does: the
// instruction and where its operands come from, the way each load reaches the threads. Fallback
// remarks say why something slower was chosen; these say what was chosen, so a user confirms
// wgmma or TMA from --remarks rather than from the PTX.

#include "compiler/codegen/analysis/DecisionRemarks.h"
#include "compiler/codegen/analysis/MmaLayout.h"
#include "compiler/codegen/analysis/Pipelining.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace tile::codegen {

namespace {

bool inMmaLayout(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa_and_nonnull<mlir::tile::MmaLayoutAttr>(tensor.getEncoding());
}

// The load an operand is read from, through reshapes and transposes, when the load's copy
// (a pipeline stage or a kernel-start copy) holds the Tensor Core layout the product reads in
// place; other operands are written to a buffer of their own first.
mlir::tile::LoadOp stagedLoad(Value operand) {
  while (Operation *def = operand.getDefiningOp()) {
    if (auto load = dyn_cast<mlir::tile::LoadOp>(def))
      return load->hasAttr(kPipelineCoreMatricesAttr) ? load : mlir::tile::LoadOp();
    if (!isa<mlir::tile::ReshapeOp, mlir::tile::PermuteOp>(def))
      return {};
    operand = def->getOperand(0);
  }
  return {};
}

std::string operandSource(Value operand) {
  if (inMmaLayout(operand.getType()))
    return "registers";
  return stagedLoad(operand) ? "its copy in shared memory" : "a shared-memory buffer";
}

void remarkProduct(mlir::tile::MmaOp op) {
  mlir::tile::MmaInstruction chosen = recordedMmaInstruction(op).value_or(mlir::tile::MmaInstruction::fma);
  RankedTensorType a = op.getA().getType(), b = op.getB().getType();
  Type element = a.getElementType();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "product on ";
  if (chosen == mlir::tile::MmaInstruction::wgmma) {
    os << "wgmma.m64n" << std::min<int64_t>(b.getShape().back(), 256) << "k" << mmaInstructionK(element) << " ("
       << element << "), A from " << operandSource(op.getA()) << ", B from " << operandSource(op.getB());
  } else if (chosen == mlir::tile::MmaInstruction::mma_sync) {
    os << "mma.sync.m16n8k" << mmaInstructionK(element) << " (" << element << "), accumulator in "
       << (inMmaLayout(op.getAcc().getType()) ? "registers" : "shared memory") << ", A from "
       << operandSource(op.getA()) << ", B from " << operandSource(op.getB());
  } else {
    os << "FMA (" << element << "): each thread accumulates its outputs, both operands read from shared memory";
  }
  op.emitRemark(text);
}

void remarkLoad(mlir::tile::LoadOp load, ArrayAttr tmaMaps) {
  std::string text;
  llvm::raw_string_ostream os(text);
  bool pipelined = load->hasAttr(kPipelineOffsetAttr), prefetched = load->hasAttr(kPrefetchOffsetAttr);
  auto loop = load->getParentOfType<scf::ForOp>();
  auto stages = loop ? loop->getAttrOfType<IntegerAttr>(kPipelineStagesAttr) : IntegerAttr();
  std::string where = pipelined ? (stages ? std::to_string(stages.getInt()) + " pipeline stages" : "pipeline stages")
                                : "shared memory at kernel start";
  auto tma = load->getAttrOfType<IntegerAttr>(kTmaAttr);
  if ((pipelined || prefetched) && tma && tmaMaps && tma.getInt() < int64_t(tmaMaps.size())) {
    auto map = cast<DictionaryAttr>(tmaMaps[tma.getInt()]);
    os << "load copied by TMA into " << where << " (descriptor " << tma.getInt() << ": box [";
    llvm::interleaveComma(map.getAs<DenseI64ArrayAttr>("box").asArrayRef(), os);
    int64_t swizzle = map.getAs<IntegerAttr>("swizzle").getInt();
    os << "], " << (swizzle ? std::to_string(swizzle) + "-byte swizzle" : std::string("no swizzle")) << ")";
  } else if (pipelined || prefetched) {
    os << "load copied with cp.async into " << where;
  } else {
    os << "load read by each thread from global memory into registers";
  }
  load.emitRemark(text);
}

} // namespace

void remarkCodegenDecisions(mlir::tile::KernelOp kernel) {
  auto tmaMaps = kernel->getAttrOfType<ArrayAttr>(kTmaMapsAttr);
  kernel.walk([&](Operation *op) {
    if (auto mma = dyn_cast<mlir::tile::MmaOp>(op))
      remarkProduct(mma);
    else if (auto load = dyn_cast<mlir::tile::LoadOp>(op))
      remarkLoad(load, tmaMaps);
  });
}

} // namespace tile::codegen
