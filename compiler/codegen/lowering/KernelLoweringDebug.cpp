// Device printf (through CUDA's vprintf, once per block from thread 0) and assertions
// (through __assertfail, which aborts the kernel with the message, file and line).

#include "compiler/codegen/lowering/Float8.h"
#include "compiler/codegen/lowering/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace tile::codegen {

// A private constant global holding `text` NUL-terminated; returns its address.
static Value stringConstant(KernelLowering &l, StringRef text) {
  auto module = l.kernel_->getParentOfType<ModuleOp>();
  std::string value = text.str();
  value.push_back('\0');
  std::string name = "__tile_str" + std::to_string(llvm::hash_value(value) & 0xffffffff);
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global) {
    OpBuilder::InsertionGuard guard(l.b_);
    l.b_.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(l.b_.getI8Type(), value.size());
    global = LLVM::GlobalOp::create(l.b_, l.loc_, type, /*isConstant=*/true, LLVM::Linkage::Internal, name,
                                    l.b_.getStringAttr(value));
  }
  return LLVM::AddressOfOp::create(l.b_, l.loc_, global);
}

// Declares (once) an external function.
static LLVM::LLVMFuncOp declare(KernelLowering &l, StringRef name, Type result, ArrayRef<Type> params) {
  auto module = l.kernel_->getParentOfType<ModuleOp>();
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(l.b_);
  l.b_.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(l.b_, l.loc_, name, LLVM::LLVMFunctionType::get(result, params));
}

// vprintf(format, args): args is a buffer of the values, promoted as C varargs are.
static void callVprintf(KernelLowering &l, StringRef format, ArrayRef<Value> args) {
  OpBuilder &b = l.b_;
  Location loc = l.loc_;
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto vprintf = declare(l, "vprintf", b.getI32Type(), {ptr, ptr});
  SmallVector<Value> promoted;
  for (Value v : args) {
    Type t = v.getType();
    if (isa<FloatType>(t) && !t.isF64())
      v = arith::ExtFOp::create(b, loc, b.getF64Type(), v);
    else if (isa<IntegerType>(t) && t.getIntOrFloatBitWidth() < 32)
      v = t.isInteger(1) ? Value(arith::ExtUIOp::create(b, loc, b.getI32Type(), v))
                         : Value(arith::ExtSIOp::create(b, loc, b.getI32Type(), v));
    promoted.push_back(v);
  }
  Value buffer = LLVM::ZeroOp::create(b, loc, ptr);
  if (!promoted.empty()) {
    SmallVector<Type> fields;
    for (Value v : promoted)
      fields.push_back(v.getType());
    auto structType = LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
    buffer = LLVM::AllocaOp::create(b, loc, ptr, structType, l.i32(1));
    for (auto [i, v] : llvm::enumerate(promoted)) {
      Value field =
          LLVM::GEPOp::create(b, loc, ptr, structType, buffer, ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      LLVM::StoreOp::create(b, loc, v, field);
    }
  }
  LLVM::CallOp::create(b, loc, vprintf, ValueRange{stringConstant(l, format), buffer});
}

LogicalResult KernelLowering::lowerPrint(mlir::tile::PrintOp op) {
  // Tiles are gathered in shared memory so thread 0 can print every element.
  int64_t offset = 0, count = 1;
  SmallVector<std::pair<int64_t, TileLayout>> placed;
  bool anyTile = false;
  for (Value arg : op.getArgs())
    anyTile |= isa<RankedTensorType>(arg.getType());
  if (anyTile)
    barrier();
  for (Value arg : op.getArgs()) {
    if (auto type = dyn_cast<RankedTensorType>(arg.getType())) {
      TileLayout layout = layoutOf(type);
      writeShared(tiles_[arg], layout, type.getElementType(), offset);
      placed.push_back({offset, layout});
      offset += (layout.numElements * elementBytes(type.getElementType()) + 15) / 16 * 16;
      count = std::max(count, layout.numElements);
    } else {
      placed.push_back({-1, TileLayout()});
    }
  }
  if (anyTile)
    barrier();
  Value isThread0 = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::eq, tid_, i32(0));
  ifThen(isThread0, [&] {
    auto loop = scf::ForOp::create(b_, loc_, i32(0), i32(count), i32(1));
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPoint(loop.getBody()->getTerminator());
    SmallVector<Value> values;
    for (auto [arg, place] : llvm::zip(op.getArgs(), placed)) {
      Type elt = getElementTypeOrSelf(arg.getType());
      Value v;
      if (place.first < 0) {
        v = scalars_.lookup(arg);
      } else {
        Value k = arith::RemUIOp::create(b_, loc_, loop.getInductionVar(), i32(place.second.numElements));
        v = readShared(elt, place.first, k);
      }
      values.push_back(isFloat8(elt) ? float8ToF32(b_, loc_, v, elt) : v); // printed as floats
    }
    callVprintf(*this, op.getFormat(), values);
  });
  if (anyTile)
    barrier();
  return success();
}

LogicalResult KernelLowering::lowerAssert(mlir::tile::AssertOp op) {
  Value failed;
  Value cond = op.getCondition();
  Value trueValue = arith::ConstantIntOp::create(b_, loc_, 1, 1);
  auto check = [&](Value c) {
    Value bad = arith::XOrIOp::create(b_, loc_, c, trueValue);
    failed = failed ? Value(arith::OrIOp::create(b_, loc_, failed, bad)) : bad;
  };
  if (isa<RankedTensorType>(cond.getType()))
    for (Value c : tiles_[cond])
      check(c);
  else
    check(scalars_.lookup(cond));
  std::string file = "<unknown>";
  unsigned line = 0;
  if (auto fl = dyn_cast<FileLineColLoc>(op.getLoc())) {
    file = fl.getFilename().str();
    line = fl.getLine();
  }
  ifThen(failed, [&] {
    auto ptr = LLVM::LLVMPointerType::get(b_.getContext());
    auto fn = declare(*this, "__assertfail", LLVM::LLVMVoidType::get(b_.getContext()),
                      {ptr, ptr, b_.getI32Type(), ptr, b_.getI64Type()});
    LLVM::CallOp::create(b_, loc_, fn,
                         ValueRange{stringConstant(*this, op.getMessage()), stringConstant(*this, file), i32(line),
                                    stringConstant(*this, kernel_.getSymName()), i64(1)});
  });
  return success();
}

} // namespace tile::codegen
