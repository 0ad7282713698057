#include "compiler/interpreter/ArrayAccess.h"

#include <cstdint>

namespace tile::interp {

bool inShape(const HostArray &array, llvm::ArrayRef<int64_t> coords) {
  for (size_t d = 0; d < coords.size(); ++d)
    if (coords[d] < 0 || coords[d] >= array.shape[d])
      return false;
  return true;
}

char *elementAddress(ExecContext &ctx, mlir::Operation *op, const BoundArray &array, llvm::ArrayRef<int64_t> coords,
                     llvm::StringRef what) {
  const HostArray &a = array.host;
  int64_t offset = 0, bytes = 0;
  bool overflow = false;
  for (size_t d = 0; d < coords.size(); ++d) {
    int64_t term;
    overflow |= __builtin_mul_overflow(coords[d], a.strides[d], &term);
    overflow |= __builtin_add_overflow(offset, term, &offset);
  }
  int64_t size = dtypeSize(a.dtype);
  overflow |= __builtin_mul_overflow(offset, size, &bytes);
  auto describe = [&] {
    std::vector<int64_t> index(coords.begin(), coords.end());
    return what.str() + " out of bounds at index " + shapeString(index) + " of array argument " + array.name +
           " (shape " + shapeString(a.shape) + ", strides " + shapeString(a.strides) + ")";
  };
  if (overflow) {
    (void)ctx.fail(op, describe() + ": the element offset overflows 64 bits");
    return nullptr;
  }
  uintptr_t addr = reinterpret_cast<uintptr_t>(a.data) + static_cast<uintptr_t>(bytes);
  if (a.allocBegin && a.allocEnd) {
    uintptr_t begin = reinterpret_cast<uintptr_t>(a.allocBegin), end = reinterpret_cast<uintptr_t>(a.allocEnd);
    bool outside = (bytes < 0 && static_cast<uintptr_t>(-bytes) > reinterpret_cast<uintptr_t>(a.data)) ||
                   addr < begin || addr > end || end - addr < static_cast<uintptr_t>(size);
    if (outside) {
      (void)ctx.fail(op, describe() + ": element offset " + std::to_string(offset) +
                             " lies outside the array's allocation");
      return nullptr;
    }
  }
  return reinterpret_cast<char *>(addr);
}

void readElement(const char *p, Tensor &t, int64_t k) {
  if (t.isFloat())
    t.f[k] = readFloat(p, t.dtype);
  else
    t.i[k] = readInt(p, t.dtype);
}

void writeElement(char *p, const Tensor &t, int64_t k) {
  if (t.isFloat())
    writeFloat(p, t.dtype, t.f[k]);
  else
    writeInt(p, t.dtype, t.i[k]);
}

} // namespace tile::interp
