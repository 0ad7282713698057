// The values the IR generator computes with.
//
// The front end evaluates a kernel for one specialization: everything that depends only on
// constants (ints, shapes, dtypes, tuples, `if` on constants) is computed here, at compile
// time; everything else becomes an MLIR value (a scalar, a tile or an array argument).
#pragma once

#include "compiler/frontend/AST.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

#include <memory>
#include <string>
#include <vector>

namespace tile::frontend {

class KValue {
public:
  enum class Kind {
    Error, // already diagnosed; uses stay silent
    None,
    Int,   // compile-time int (Python int, 64-bit)
    Float, // compile-time float
    Bool,  // compile-time bool
    Str,
    Tuple,              // compile-time tuple; elements may be runtime values
    DType,              // a dtype such as ct.float32 (an MLIR element type)
    Namespace,          // a module such as `ct` or `ct.PaddingMode`
    Builtin,            // a built-in function, e.g. "ct.load", "range", "tile.astype"
    Function,           // a user @ct.function
    Padding,            // a ct.PaddingMode member
    Runtime,            // an MLIR value: scalar, tile (ranked tensor) or array
    Dict,               // `dict(...)` / `{...}` in decorators
    ConstantAnnotation, // ct.Constant or ct.Constant[int]
    TiledView,          // array.tiled_view(tile_shape): the array (self), the tile shape, padding
  };

  KValue() = default;
  static KValue error() { return KValue(); }
  static KValue none() { return make(Kind::None); }
  static KValue integer(int64_t v) {
    KValue k = make(Kind::Int);
    k.i_ = v;
    return k;
  }
  static KValue floating(double v) {
    KValue k = make(Kind::Float);
    k.f_ = v;
    return k;
  }
  static KValue boolean(bool v) {
    KValue k = make(Kind::Bool);
    k.i_ = v;
    return k;
  }
  static KValue string(std::string s) {
    KValue k = make(Kind::Str);
    k.name_ = std::move(s);
    return k;
  }
  static KValue tuple(std::vector<KValue> elts) {
    KValue k = make(Kind::Tuple);
    k.elts_ = std::make_shared<std::vector<KValue>>(std::move(elts));
    return k;
  }
  static KValue dict(std::vector<std::string> keys, std::vector<KValue> values) {
    KValue k = tuple(std::move(values));
    k.kind_ = Kind::Dict;
    k.keys_ = std::make_shared<std::vector<std::string>>(std::move(keys));
    return k;
  }
  static KValue dtype(mlir::Type t) {
    KValue k = make(Kind::DType);
    k.type_ = t;
    return k;
  }
  static KValue ns(std::string n) {
    KValue k = make(Kind::Namespace);
    k.name_ = std::move(n);
    return k;
  }
  static KValue builtin(std::string n, std::shared_ptr<KValue> self = nullptr) {
    KValue k = make(Kind::Builtin);
    k.name_ = std::move(n);
    k.self_ = std::move(self);
    return k;
  }
  static KValue function(const FunctionDefStmt *fn) {
    KValue k = make(Kind::Function);
    k.fn_ = fn;
    return k;
  }
  static KValue padding(int64_t mode, std::string name) {
    KValue k = make(Kind::Padding);
    k.i_ = mode;
    k.name_ = std::move(name);
    return k;
  }
  static KValue runtime(mlir::Value v) {
    KValue k = make(Kind::Runtime);
    k.value_ = v;
    return k;
  }
  /// `array.tiled_view(tileShape, padding_mode=padding)`: tiles of `tileShape` (compile-time
  /// ints, one per array dimension) at multiples of it.
  static KValue tiledView(KValue array, std::vector<KValue> tileShape, const KValue &padding) {
    KValue k = make(Kind::TiledView);
    k.self_ = std::make_shared<KValue>(std::move(array));
    k.elts_ = std::make_shared<std::vector<KValue>>(std::move(tileShape));
    k.i_ = padding.intValue();
    k.name_ = padding.name();
    return k;
  }
  static KValue constantAnnotation(std::string of) {
    KValue k = make(Kind::ConstantAnnotation);
    k.name_ = std::move(of);
    return k;
  }

  Kind kind() const { return kind_; }
  bool isError() const { return kind_ == Kind::Error; }
  bool isNone() const { return kind_ == Kind::None; }
  bool isInt() const { return kind_ == Kind::Int; }
  bool isFloat() const { return kind_ == Kind::Float; }
  bool isBool() const { return kind_ == Kind::Bool; }
  bool isStr() const { return kind_ == Kind::Str; }
  bool isTuple() const { return kind_ == Kind::Tuple; }
  bool isDict() const { return kind_ == Kind::Dict; }
  bool isDType() const { return kind_ == Kind::DType; }
  bool isRuntime() const { return kind_ == Kind::Runtime; }
  /// A compile-time int, float or bool.
  bool isConstNumber() const { return isInt() || isFloat() || isBool(); }

  int64_t intValue() const { return i_; }
  double floatValue() const { return f_; }
  bool boolValue() const { return i_ != 0; }
  /// A compile-time number as a double.
  double numberAsDouble() const { return isFloat() ? f_ : static_cast<double>(i_); }
  const std::string &name() const { return name_; }
  const std::vector<KValue> &elements() const { return *elts_; }
  const std::vector<std::string> &keys() const { return *keys_; }
  mlir::Type dtypeValue() const { return type_; }
  const FunctionDefStmt *functionDef() const { return fn_; }
  const KValue *self() const { return self_.get(); }
  mlir::Value value() const { return value_; }
  /// A TiledView's padding mode (a Padding value).
  KValue viewPadding() const { return padding(i_, name_); }

  // Runtime value classification.
  bool isArray() const;
  bool isTile() const;   // a ranked tensor (0-d included)
  bool isScalar() const; // a runtime scalar (integer or float)
  /// The element type of a runtime scalar, tile or array.
  mlir::Type elementType() const;
  /// A tile's shape (empty for scalars).
  llvm::ArrayRef<int64_t> shape() const;

private:
  static KValue make(Kind kind) {
    KValue k;
    k.kind_ = kind;
    return k;
  }

  Kind kind_ = Kind::Error;
  int64_t i_ = 0;
  double f_ = 0;
  std::string name_;
  std::shared_ptr<std::vector<KValue>> elts_;
  std::shared_ptr<std::vector<std::string>> keys_;
  mlir::Type type_;
  const FunctionDefStmt *fn_ = nullptr;
  std::shared_ptr<KValue> self_;
  mlir::Value value_;
};

/// How a value is described in messages: "int 3", "tile<64x32xf32>", "array<f32, rank 2>".
std::string describe(const KValue &v);

} // namespace tile::frontend
