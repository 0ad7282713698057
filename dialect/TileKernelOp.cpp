//===- TileKernelOp.cpp - tile.kernel ------------------------------------===//

#include "dialect/TileDialect.h"

#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name, FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(), builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addRegion();
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) { return builder.getFunctionType(argTypes, results); };
  if (function_interface_impl::parseFunctionOp(parser, result, /*allowVariadic=*/false,
                                               getFunctionTypeAttrName(result.name), buildFuncType,
                                               getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name)))
    return failure();
  Region &body = *result.regions.front();
  if (!body.empty()) {
    OpBuilder builder(parser.getContext());
    KernelOp::ensureTerminator(body, builder, result.location);
  }
  return success();
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
                                           getArgAttrsAttrName(), getResAttrsAttrName());
}

static bool isKernelArgumentType(Type type) { return isa<ArrayType, IntegerType, IndexType, FloatType>(type); }

LogicalResult KernelOp::verify() {
  if (isExternal())
    return emitOpError("must have a body");
  if (!getResultTypes().empty())
    return emitOpError("kernels return nothing, but the signature has ") << getResultTypes().size() << " result(s)";
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (!isKernelArgumentType(type))
      return emitOpError("argument #") << i << " has type " << type << "; kernel arguments are arrays or scalars";
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (getArgAttr(unsigned(i), kAlignedArgAttr) && !isa<ArrayType>(type))
      return emitOpError("argument #") << i << " has type " << type << "; " << kAlignedArgAttr
                                       << " states facts of an array";
  if (auto occupancy = getOccupancy())
    if (*occupancy < 1 || *occupancy > 32)
      return emitOpError("occupancy ") << *occupancy << " is out of range [1, 32]";
  if (auto numCtas = getNumCtas())
    if (*numCtas < 1 || *numCtas > 16 || !llvm::isPowerOf2_32(*numCtas))
      return emitOpError("num_ctas ") << *numCtas << " must be a power of two in [1, 16]";
  if (auto threads = getNumThreads())
    if (*threads < 32 || *threads > 1024 || !llvm::isPowerOf2_32(*threads))
      return emitOpError("num_threads ") << *threads << " must be a power of two from 32 to 1024";
  return success();
}

std::string KernelOp::getParamName(unsigned index) {
  if (!getBody().empty())
    if (auto name = dyn_cast<NameLoc>(getBody().front().getArgument(index).getLoc()))
      return name.getName().str();
  if (auto attr = getArgAttrOfType<StringAttr>(index, "tile.name"))
    return attr.getValue().str();
  return "arg" + std::to_string(index);
}
