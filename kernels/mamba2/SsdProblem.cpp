#include "kernels/mamba2/SsdProblem.h"

#include "runtime/Error.h"

#include <cmath>
#include <string>

namespace tile::mamba2 {

namespace {

[[noreturn]] void invalid(const std::string &message) { throw rt::Error(rt::Error::Kind::InvalidArgument, message); }

void expectRank(const char *name, const Shape &shape, std::size_t rank, const char *dimNames) {
  if (shape.size() != rank)
    invalid(std::string(name) + " has rank " + std::to_string(shape.size()) + " (shape " + shapeString(shape) +
            ") but expected rank " + std::to_string(rank) + ": " + dimNames);
  for (std::int64_t d : shape)
    if (d < 0)
      invalid(std::string(name) + " has a negative extent: " + shapeString(shape));
}

TensorView checkedView(const char *name, const TensorView &view) {
  TensorView v = view;
  if (v.strides.empty())
    v.strides = contiguousStrides(v.shape);
  if (v.strides.size() != v.shape.size())
    invalid(std::string(name) + " has " + std::to_string(v.strides.size()) + " strides for shape " +
            shapeString(v.shape) + " (expected " + std::to_string(v.shape.size()) + ", or none for contiguous)");
  if (!v.data && v.numElements() != 0)
    invalid(std::string(name) + " has no data");
  return v;
}

void atLeastOne(std::int64_t v, const char *what) {
  if (v < 1)
    invalid(std::string(what) + " is 0; it must be at least 1");
}

// The optional inputs the forward pass and the decode step share: D, z, dt_bias.
template <typename Inputs> void checkOptionalViews(const Inputs &in, Inputs &out) {
  if (in.D)
    out.D = checkedView("D", *in.D);
  if (in.z)
    out.z = checkedView("z", *in.z);
  if (in.dtBias)
    out.dtBias = checkedView("dt_bias", *in.dtBias);
}

} // namespace

void expectShape(const char *name, const Shape &actual, const char *dimNames, const Shape &expected) {
  if (actual.size() != expected.size())
    invalid(std::string(name) + " has rank " + std::to_string(actual.size()) + " (shape " + shapeString(actual) +
            ") but expected rank " + std::to_string(expected.size()) + ": " + dimNames + " = " + shapeString(expected));
  if (actual != expected)
    invalid(std::string(name) + " has shape " + shapeString(actual) + " but expected " + dimNames + " = " +
            shapeString(expected));
}

// A per-head weight that may also be per channel: (H,) or (H, P).
static void expectPerHeadOrChannel(const char *name, const Shape &shape, const SsdDims &d) {
  if (shape.size() == 2)
    expectShape(name, shape, "(H, P)", {d.nheads, d.headdim});
  else if (shape.size() == 1)
    expectShape(name, shape, "(H,)", {d.nheads});
  else
    invalid(std::string(name) + " has shape " + shapeString(shape) + " but expected (H,) = (" +
            std::to_string(d.nheads) + ",) or (H, P) = " + shapeString({d.nheads, d.headdim}));
}

SsdDims validateShapes(const SsdShapes &s) {
  expectRank("x", s.x, 4, "(b, T, H, P)");
  expectRank("B", s.B, 4, "(b, T, G, N)");
  SsdDims d;
  d.batch = s.x[0];
  d.seqlen = s.x[1];
  d.nheads = s.x[2];
  d.headdim = s.x[3];
  d.ngroups = s.B[2];
  d.dstate = s.B[3];
  // The model dimensions must be at least 1: the kernels divide by them (a zero used to pass
  // here and fail inside a kernel with "integer division or modulo by zero"). An empty batch
  // (b = 0) or sequence (T = 0) stays valid: there is nothing to compute, and final_states is
  // initial_states.
  atLeastOne(d.nheads, "nheads (x's dimension 2)");
  atLeastOne(d.headdim, "headdim (x's dimension 3)");
  // B's b and T must agree with x before its G and N define the groups.
  expectShape("B", s.B, "(b, T, G, N)", {d.batch, d.seqlen, d.ngroups, d.dstate});
  atLeastOne(d.ngroups, "ngroups (B's dimension 2)");
  atLeastOne(d.dstate, "dstate (B's dimension 3)");
  if (d.nheads % d.ngroups != 0)
    invalid("nheads " + std::to_string(d.nheads) + " is not divisible by ngroups " + std::to_string(d.ngroups));
  expectShape("C", s.C, "(b, T, G, N)", {d.batch, d.seqlen, d.ngroups, d.dstate});
  expectShape("dt", s.dt, "(b, T, H)", {d.batch, d.seqlen, d.nheads});
  expectShape("A", s.A, "(H,)", {d.nheads});
  if (s.D)
    expectPerHeadOrChannel("D", *s.D, d);
  if (s.z)
    expectShape("z", *s.z, "(b, T, H, P)", s.x);
  if (s.dtBias)
    expectShape("dt_bias", *s.dtBias, "(H,)", {d.nheads});
  if (s.initialStates)
    expectShape("initial_states", *s.initialStates, "(b, H, P, N)", {d.batch, d.nheads, d.headdim, d.dstate});
  if (s.seqIdx)
    expectShape("seq_idx", *s.seqIdx, "(b, T)", {d.batch, d.seqlen});
  return d;
}

SsdDims validateDecodeShapes(const SsdDecodeShapes &s) {
  expectRank("state", s.state, 4, "(b, H, P, N)");
  expectRank("B", s.B, 3, "(b, G, N)");
  SsdDims d;
  d.batch = s.state[0];
  d.seqlen = 1;
  d.nheads = s.state[1];
  d.headdim = s.state[2];
  d.dstate = s.state[3];
  d.ngroups = s.B[1];
  atLeastOne(d.nheads, "nheads (state's dimension 1)");
  atLeastOne(d.headdim, "headdim (state's dimension 2)");
  atLeastOne(d.dstate, "dstate (state's dimension 3)");
  expectShape("B", s.B, "(b, G, N)", {d.batch, d.ngroups, d.dstate});
  atLeastOne(d.ngroups, "ngroups (B's dimension 1)");
  if (d.nheads % d.ngroups != 0)
    invalid("nheads " + std::to_string(d.nheads) + " is not divisible by ngroups " + std::to_string(d.ngroups));
  expectShape("C", s.C, "(b, G, N)", s.B);
  expectShape("x", s.x, "(b, H, P)", {d.batch, d.nheads, d.headdim});
  if (s.dt.size() == 3)
    expectShape("dt", s.dt, "(b, H, P)", s.x);
  else
    expectShape("dt", s.dt, "(b, H)", {d.batch, d.nheads});
  expectShape("A", s.A, "(H,)", {d.nheads});
  if (s.D)
    expectPerHeadOrChannel("D", *s.D, d);
  if (s.z)
    expectShape("z", *s.z, "(b, H, P)", s.x);
  if (s.dtBias)
    expectPerHeadOrChannel("dt_bias", *s.dtBias, d);
  return d;
}

void validateOptions(const SsdOptions &o) {
  if (std::isnan(o.dtMin) || std::isnan(o.dtMax) || o.dtMin > o.dtMax)
    invalid("dt_limit (" + std::to_string(o.dtMin) + ", " + std::to_string(o.dtMax) +
            ") is not an interval: expected dt_min <= dt_max");
}

SsdShapes SsdInputs::shapes() const { return SsdShapes::of(*this); }

SsdInputs validateInputs(const SsdInputs &in, const SsdOptions &options, SsdDims &dims) {
  dims = validateShapes(in.shapes());
  validateOptions(options);
  SsdInputs out;
  out.x = checkedView("x", in.x);
  out.dt = checkedView("dt", in.dt);
  out.A = checkedView("A", in.A);
  out.B = checkedView("B", in.B);
  out.C = checkedView("C", in.C);
  checkOptionalViews(in, out);
  if (in.initialStates)
    out.initialStates = checkedView("initial_states", *in.initialStates);
  if (in.seqIdx)
    out.seqIdx = checkedView("seq_idx", *in.seqIdx);
  return out;
}

SsdDecodeInputs validateDecodeInputs(const SsdDecodeInputs &in, const SsdOptions &options, SsdDims &dims) {
  dims = validateDecodeShapes(in.shapes());
  validateOptions(options);
  SsdDecodeInputs out{checkedView("state", in.state),
                      checkedView("x", in.x),
                      checkedView("dt", in.dt),
                      checkedView("A", in.A),
                      checkedView("B", in.B),
                      checkedView("C", in.C),
                      {},
                      {},
                      {}};
  checkOptionalViews(in, out);
  return out;
}

double stepSize(double dt, double bias, const SsdOptions &options) {
  double u = dt + bias;
  if (options.dtSoftplus && !(u > 20.0))
    u = std::log1p(std::exp(u));
  // max/min in this order keep a NaN a NaN (a NaN input must not become dt_min).
  u = u < options.dtMin ? options.dtMin : u;
  return u > options.dtMax ? options.dtMax : u;
}

double skipWeight(const SsdInputs &in, std::int64_t h, std::int64_t p) { return skipWeight(in.D, h, p); }

double skipWeight(const std::optional<TensorView> &D, std::int64_t h, std::int64_t p) {
  if (!D)
    return 0.0;
  return D->rank() == 1 ? (*D)({h}) : (*D)({h, p});
}

double gate(double y, double z) { return y * z / (1.0 + std::exp(-z)); }

} // namespace tile::mamba2
