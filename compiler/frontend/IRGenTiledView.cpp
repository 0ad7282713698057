// cuTile's TiledView: `array.tiled_view(tile_shape, padding_mode=...)` and its methods. A view
// holds no IR of its own; each method is the array access it stands for: load and store are
// ct.load / ct.store of a tile at a tile index, atomic_store_<op> is ct.atomic_<op> at the
// element indices of the tile (index * tile_shape + arange along each dimension, out-of-bounds
// elements skipped), num_tiles is ct.num_tiles(array, axis, tile_shape).

#include "compiler/frontend/IRGen.h"

#include "dialect/TileDialect.h"

using namespace mlir;

namespace tile::frontend {

KValue KernelIRGen::callTiledView(const std::string &name, const KValue &self, const CallArgs &argsIn) {
  CallArgs args = argsIn;
  args.callee = name.substr(name.find('.') + 1);
  Bound b;
  if (name == "array.tiled_view") {
    if (!bind(args, {"tile_shape", "padding_mode?", "traversal_steps?"}, b))
      return KValue::error();
    auto array = cast<mlir::tile::ArrayType>(self.value().getType());
    const Arg &shapeArg = *b.get("tile_shape");
    std::vector<KValue> shape = shapeArg.value.isTuple() ? shapeArg.value.elements() : std::vector{shapeArg.value};
    for (const KValue &d : shape)
      if (!d.isInt() || d.intValue() < 1) {
        error(shapeArg.range, "tiled_view: tile_shape must be positive compile-time ints, got " + describe(d));
        return KValue::error();
      }
    if (static_cast<int64_t>(shape.size()) != array.getRank()) {
      error(shapeArg.range, "tiled_view: a tile_shape of rank " + std::to_string(shape.size()) +
                                " for an array of rank " + std::to_string(array.getRank()) +
                                " (one extent per array dimension)");
      return KValue::error();
    }
    KValue padding = KValue::padding(static_cast<int64_t>(mlir::tile::PaddingMode::undetermined), "UNDETERMINED");
    if (const Arg *p = b.get("padding_mode")) {
      if (p->value.kind() != KValue::Kind::Padding) {
        error(p->range, "tiled_view: padding_mode must be a ct.PaddingMode member, got " + describe(p->value));
        return KValue::error();
      }
      padding = p->value;
    }
    // Tiles at other steps than their shape (overlapping or with gaps) are not supported yet.
    if (const Arg *steps = b.get("traversal_steps"); steps && !steps->value.isNone()) {
      std::vector<KValue> s = steps->value.isTuple() ? steps->value.elements() : std::vector{steps->value};
      bool same = s.size() == shape.size();
      for (size_t i = 0; same && i < s.size(); ++i)
        same = s[i].isInt() && s[i].intValue() == shape[i].intValue();
      if (!same) {
        error(steps->range, "tiled_view: traversal_steps " + describe(steps->value) +
                                " other than the tile shape (overlapping or spaced tiles) are not supported yet");
        return KValue::error();
      }
    }
    return KValue::tiledView(self, std::move(shape), padding);
  }

  const KValue &array = *self.self();
  const KValue tileShape = KValue::tuple(self.elements());
  const std::string method = args.callee;
  if (method == "load" || method == "store") {
    bool isLoad = method == "load";
    bool ok = isLoad ? bind(args, {"index", "check_bounds?", "latency?", "allow_tma?"}, b)
                     : bind(args, {"index", "tile", "check_bounds?", "latency?", "allow_tma?"}, b);
    if (!ok)
      return KValue::error();
    // check_bounds=False promises an in-bounds tile; checking it anyway is always allowed.
    if (const Arg *cb = b.get("check_bounds"); cb && !cb->value.isBool()) {
      error(cb->range, method + ": check_bounds must be True or False, got " + describe(cb->value));
      return KValue::error();
    }
    CallArgs access;
    access.callRange = args.callRange;
    access.callee = method;
    access.positional = {{array, args.callRange}, *b.get("index")};
    if (isLoad) {
      access.positional.push_back({tileShape, args.callRange});
      access.keywords.push_back({"padding_mode", {self.viewPadding(), args.callRange}});
    } else {
      // A tile broadcasts to the view's tile shape; a number or scalar fills one of the
      // array's dtype.
      const Arg &t = *b.get("tile");
      SmallVector<int64_t> dims;
      for (const KValue &d : self.elements())
        dims.push_back(d.intValue());
      KValue full = t.value;
      if (!t.value.isTile() || t.value.shape() != ArrayRef<int64_t>(dims)) {
        CallArgs fill;
        fill.callRange = t.range;
        fill.callee = "store";
        fill.positional = {t, {tileShape, t.range}};
        if (!t.value.isTile()) {
          fill.positional = {{tileShape, t.range}, t};
          fill.keywords.push_back({"dtype", {KValue::dtype(array.elementType()), t.range}});
        }
        full = callBuiltin(t.value.isTile() ? "ct.broadcast_to" : "ct.full", nullptr, fill);
      }
      if (full.isError())
        return full;
      access.positional.push_back({full, t.range});
    }
    for (const char *k : {"latency", "allow_tma"})
      if (const Arg *a = b.get(k))
        access.keywords.push_back({k, *a});
    return callBuiltin(isLoad ? "ct.load" : "ct.store", nullptr, access);
  }
  if (method == "num_tiles") {
    if (!bind(args, {"axis"}, b))
      return KValue::error();
    const Arg &axis = *b.get("axis");
    int64_t rank = static_cast<int64_t>(self.elements().size());
    if (!axis.value.isInt() || axis.value.intValue() < -rank || axis.value.intValue() >= rank) {
      error(axis.range, "num_tiles: axis must be a compile-time int in [" + std::to_string(-rank) + ", " +
                            std::to_string(rank) + "), got " + describe(axis.value));
      return KValue::error();
    }
    // ct.num_tiles(array, axis, tile_shape), the axis counted from the front.
    CallArgs count;
    count.callRange = args.callRange;
    count.callee = method;
    count.positional = {{array, args.callRange},
                        {KValue::integer((axis.value.intValue() + rank) % rank), axis.range},
                        {tileShape, args.callRange}};
    return callBuiltin("ct.num_tiles", nullptr, count);
  }
  // atomic_store_<op>(index, update): ct.atomic_<op> at the tile's element indices.
  if (!bind(args, {"index", "update"}, b))
    return KValue::error();
  const Arg &index = *b.get("index");
  std::vector<Arg> idx;
  if (index.value.isTuple())
    for (const KValue &v : index.value.elements())
      idx.push_back({v, index.range});
  else
    idx.push_back(index);
  size_t rank = self.elements().size();
  if (idx.size() != rank) {
    error(index.range,
          method + ": expected " + std::to_string(rank) + " tile indices, got " + std::to_string(idx.size()));
    return KValue::error();
  }
  std::vector<KValue> elementIndices;
  for (size_t d = 0; d < rank; ++d) {
    int64_t extent = self.elements()[d].intValue();
    CallArgs ar;
    ar.callRange = args.callRange;
    ar.callee = "arange";
    ar.positional = {{KValue::integer(extent), args.callRange}};
    KValue offsets = callBuiltin("ct.arange", nullptr, ar);
    if (offsets.isError())
      return offsets;
    // Along dimension d only: shape (1, ..., extent, ..., 1).
    std::vector<KValue> along(rank, KValue::integer(1));
    along[d] = KValue::integer(extent);
    CallArgs rs;
    rs.callRange = args.callRange;
    rs.callee = "reshape";
    rs.positional = {{offsets, args.callRange}, {KValue::tuple(along), args.callRange}};
    offsets = callBuiltin("ct.reshape", nullptr, rs);
    KValue origin = binary(BinOpKind::Mult, idx[d], {KValue::integer(extent), idx[d].range}, idx[d].range);
    if (offsets.isError() || origin.isError())
      return KValue::error();
    KValue at = binary(BinOpKind::Add, {origin, idx[d].range}, {offsets, args.callRange}, args.callRange);
    if (at.isError())
      return at;
    elementIndices.push_back(at);
  }
  CallArgs rmw;
  rmw.callRange = args.callRange;
  rmw.callee = method;
  rmw.positional = {{array, args.callRange}, {KValue::tuple(std::move(elementIndices)), index.range}, *b.get("update")};
  KValue r = callBuiltin("ct.atomic_" + method.substr(std::string("atomic_store_").size()), nullptr, rmw);
  return r.isError() ? r : KValue::none();
}

} // namespace tile::frontend
