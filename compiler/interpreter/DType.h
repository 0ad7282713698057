// Element types as host memory holds them. The enum is the runtime's (tile::rt::DType: one
// definition for the compiler, the interpreter and the runtime); this adds what the interpreter
// needs on top (rounding and bit patterns of the float dtypes: FloatFormat.h).
//
// The interpreter keeps float elements as doubles that are exactly representable in their
// dtype (every op rounds its results back into the dtype), and integer elements as int64
// canonicalised to their width: sign-extended, except bool which is 0 or 1 and the unsigned
// dtypes, zero-extended. (Tiles are signless in the IR, so only host arrays and scalar
// arguments have unsigned dtypes.)
#pragma once

#include "runtime/DType.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tile::interp {

// TFloat32 is stored in memory as a 32-bit float whose low 13 mantissa bits are zero.
using DType = rt::DType;
using rt::dtypeName; // cuTile's name: "bool_", "int32", "bfloat16", "float8_e4m3fn", ...
using rt::dtypeSize; // bytes per element in host memory
using rt::isFloat;

/// Accepts cuTile names and the short forms tile-cc accepts (i32, f32, bf16, f16, tf32, ...).
std::optional<DType> parseDType(std::string_view name);

inline bool isInteger(DType dtype) { return !isFloat(dtype); }
/// Bits of an integer dtype (bool: 1).
unsigned intWidth(DType dtype);

/// `v` wrapped to an integer dtype's width in canonical form.
int64_t wrapInt(int64_t v, DType dtype);
/// The signed / unsigned reading of a canonical integer (bool true is -1 signed, 1 unsigned).
int64_t signedValue(int64_t v, DType dtype);
uint64_t unsignedValue(int64_t v, DType dtype);

/// Reads / writes one element of host memory. Floats are rounded to the dtype on writing
/// (FloatFormat.h); a tfloat32 element is read as its f32 container rounded to tf32.
double readFloat(const void *p, DType dtype);
void writeFloat(void *p, DType dtype, double v);
int64_t readInt(const void *p, DType dtype);
void writeInt(void *p, DType dtype, int64_t v);

} // namespace tile::interp
