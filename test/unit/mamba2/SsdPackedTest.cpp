// Packed sequences (seq_idx, mamba_ssm's semantics) through ssd_forward on the interpreter:
// several sequences in one row of the batch, with boundaries inside chunks, on a chunk boundary,
// a one-position sequence and one at the very last position. The packed pass must match the
// float64 recurrence that starts from zero at every boundary, and each sequence run alone
// (the first one with the initial state, which belongs to sequence 0), in the configurations
// that compute the state differently (weighted B, the transposed state, x weighted, chunks in
// parts) and with compute_out reading chunk_bmm's blocks below the diagonal.
#include "kernels/mamba2/ErrorMetrics.h"
#include "kernels/mamba2/Reference.h"
#include "kernels/mamba2/SsdForward.h"
#include "kernels/mamba2/SsdVarlen.h"
#include "test/unit/mamba2/Mamba2TestUtil.h"
#include "test/unit/mamba2/StoredTensor.h"
#include "test/unit/runtime/GpuTest.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace tile;
using namespace tile::mamba2;
using tile::mamba2::test::Problem;
using tile::mamba2::test::ProblemSpec;
using tile::mamba2::test::Stored;

namespace {

// Rows [t0, t1) of batch row b of a (b, T, ...) tensor, as a tensor with batch 1.
Tensor rows(const Tensor &t, int64_t b, int64_t t0, int64_t t1) {
  Shape shape = t.shape;
  shape[0] = 1, shape[1] = t1 - t0;
  Tensor out(shape);
  int64_t inner = 1;
  for (size_t d = 2; d < t.shape.size(); ++d)
    inner *= t.shape[d];
  for (int64_t r = t0; r < t1; ++r)
    for (int64_t i = 0; i < inner; ++i)
      out.data[size_t((r - t0) * inner + i)] = t.data[size_t((b * t.shape[1] + r) * inner + i)];
  return out;
}

// Batch row b of a (b, ...) tensor, as a tensor with batch 1.
Tensor batchRow(const Tensor &t, int64_t b) {
  Shape shape = t.shape;
  shape[0] = 1;
  Tensor out(shape);
  const int64_t inner = out.numElements();
  for (int64_t i = 0; i < inner; ++i)
    out.data[size_t(i)] = t.data[size_t(b * inner + i)];
  return out;
}

struct Outputs {
  Tensor y, finalStates;
  std::array<SsdKernelChoice, 4> choices;
  Tensor varlenStates; // with cu_seqlens: each sequence's final state (SsdVarlen.h)
};

using Storage = std::vector<std::unique_ptr<Stored>>;

// ssd_forward of `p` on `backend` with x, z, B, C stored in `dtype`, and in `ref` the float64
// inputs the reference takes (the stored values, which `keep` holds); seqIdx (b, T) when given.
Outputs forward(jit::Backend &backend, const Problem &p, interp::DType dtype, int chunk, const Tensor *seqIdx,
                SsdInputs &ref, Storage &keep, const Tensor *cuSeqlens = nullptr) {
  const interp::DType f32 = interp::DType::Float32;
  auto store = [&](const Tensor &t, interp::DType type) -> const Stored & {
    keep.push_back(std::make_unique<Stored>(t, type, false, backend));
    return *keep.back();
  };
  const Stored &x = store(p.x, dtype), &dt = store(p.dt, f32), &A = store(p.A, f32), &B = store(p.B, dtype),
               &C = store(p.C, dtype);
  SsdArrayInputs in{x.array, dt.array, A.array, B.array, C.array};
  ref = SsdInputs{x.rounded, dt.rounded, A.rounded, B.rounded, C.rounded};
  if (p.spec.dRank) {
    const Stored &s = store(p.D, f32);
    in.D = s.array, ref.D = s.rounded.view();
  }
  if (p.spec.z) {
    const Stored &s = store(p.z, dtype);
    in.z = s.array, ref.z = s.rounded.view();
  }
  if (p.spec.dtBias) {
    const Stored &s = store(p.dtBias, f32);
    in.dtBias = s.array, ref.dtBias = s.rounded.view();
  }
  if (p.spec.initialStates) {
    const Stored &s = store(p.initialStates, f32);
    in.initialStates = s.array, ref.initialStates = s.rounded.view();
  }
  if (seqIdx) {
    const Stored &s = store(*seqIdx, interp::DType::Int32);
    in.seqIdx = s.array, ref.seqIdx = s.rounded.view();
  }
  ForwardOptions options;
  options.chunkSize = chunk;
  options.dt = p.spec.options;
  SsdOutputs out = ssdForward(backend, in, options);
  Outputs result{out.y.values(), out.finalStates.values(), out.choices, {}};
  if (cuSeqlens)
    result.varlenStates =
        ssdVarlenStates(backend, in, out, store(*cuSeqlens, interp::DType::Int32).array, options).values();
  return result;
}

// A sub-problem: positions [t0, t1) of batch row b, with the initial state when `withInit`.
Problem slice(const Problem &p, int64_t b, int64_t t0, int64_t t1, bool withInit) {
  Problem s = p;
  s.spec.b = 1, s.spec.T = t1 - t0;
  s.x = rows(p.x, b, t0, t1), s.dt = rows(p.dt, b, t0, t1), s.B = rows(p.B, b, t0, t1), s.C = rows(p.C, b, t0, t1);
  if (p.spec.z)
    s.z = rows(p.z, b, t0, t1);
  s.spec.initialStates = withInit && p.spec.initialStates;
  if (s.spec.initialStates)
    s.initialStates = batchRow(p.initialStates, b);
  return s;
}

struct PackedCase {
  const char *name;
  interp::DType dtype;
  int chunk;
  int64_t T;
  // Where each batch row's sequences start (the first at 0); seq_idx counts them from 0.
  std::vector<std::vector<int64_t>> starts;
  const char *force = nullptr; // TILE_AUTOTUNE_FORCE rules, or none
  int64_t H = 4, P = 16, N = 16;
};

void check(const char *name, const char *what, const Tensor &got, const Tensor &want, interp::DType dtype,
           rt::DType stored, double sMax) {
  const auto tol = tile::mamba2::test::ssdTolerance(static_cast<rt::DType>(dtype), false, stored, rms(want), sMax);
  const ErrorStats e = compare(got, want, tol.atol, tol.rtol);
  std::printf("ssd packed %-34s %-24s %s\n", name, what, e.str(got.shape).c_str());
  CHECK(e.outside == 0);
}

// What the varlen states' entering part is stored as: the chunk-entry states, bf16 for bf16
// data with native products (SsdPlan.cpp), else float32.
rt::DType varlenStored(const PackedCase &c) {
  return c.dtype == interp::DType::BFloat16 ? rt::DType::BFloat16 : rt::DType::Float32;
}

// Runs a case on the interpreter, or on the GPU (its tuner picking each kernel's configuration
// unless the case forces one).
void run(const PackedCase &c, jit::BackendOptions::Choice where = jit::BackendOptions::Choice::Interpreter) {
  INFO("case " << c.name);
  ProblemSpec spec;
  spec.b = int64_t(c.starts.size()), spec.T = c.T, spec.H = c.H, spec.P = c.P, spec.G = 2, spec.N = c.N;
  spec.dRank = 1, spec.z = true, spec.initialStates = true, spec.dtBias = true;
  spec.options.dtSoftplus = true;
  const Problem p(spec, 5);
  Tensor seqIdx({spec.b, spec.T});
  for (int64_t b = 0; b < spec.b; ++b)
    for (size_t s = 0; s < c.starts[size_t(b)].size(); ++s) {
      const int64_t end = s + 1 < c.starts[size_t(b)].size() ? c.starts[size_t(b)][s + 1] : spec.T;
      for (int64_t t = c.starts[size_t(b)][s]; t < end; ++t)
        seqIdx({b, t}) = double(s);
    }

  jit::BackendOptions bo;
  bo.choice = where;
  if (c.force) {
    jit::TuneSettings tuning;
    tuning.force = jit::parseForceRules(c.force);
    bo.tuning = tuning;
  }
  jit::Backend backend(bo);
  // One row: each sequence's final state too (cu_seqlens, SsdVarlen.h).
  std::optional<Tensor> cuSeqlens;
  if (spec.b == 1) {
    cuSeqlens = Tensor({int64_t(c.starts[0].size()) + 1});
    for (size_t s = 0; s < c.starts[0].size(); ++s)
      (*cuSeqlens)({int64_t(s)}) = double(c.starts[0][s]);
    (*cuSeqlens)({int64_t(c.starts[0].size())}) = double(spec.T);
  }
  SsdInputs ref;
  Storage storage;
  const Outputs packed =
      forward(backend, p, c.dtype, c.chunk, &seqIdx, ref, storage, cuSeqlens ? &*cuSeqlens : nullptr);
  for (const SsdKernelChoice &k : packed.choices)
    std::printf("ssd packed %-34s %-24s %s\n", c.name, k.kernel.c_str(), k.str().c_str());
  const SsdResult expected = reference(ref, spec.options);
  const rt::DType yType = static_cast<rt::DType>(c.dtype);
  // The decays' largest argument bounds the fp32 exponent error (ssdTolerance).
  double sMax = 0;
  for (int64_t b = 0; b < spec.b; ++b)
    for (int64_t h = 0; h < spec.H; ++h) {
      double s = 0;
      for (int64_t t = 0; t < spec.T; ++t)
        s += std::abs(ref.A({h}) * stepSize(ref.dt({b, t, h}), ref.dtBias ? (*ref.dtBias)({h}) : 0, spec.options));
      sMax = std::max(sMax, s);
    }
  check(c.name, "y vs reference", packed.y, expected.y, c.dtype, yType, sMax);
  check(c.name, "final_states vs reference", packed.finalStates, expected.finalStates, c.dtype, rt::DType::Float32,
        sMax);

  // Each sequence alone: y over its positions, and the row's last sequence's final state.
  for (int64_t b = 0; b < spec.b; ++b) {
    const auto &starts = c.starts[size_t(b)];
    for (size_t s = 0; s < starts.size(); ++s) {
      const int64_t t0 = starts[s], t1 = s + 1 < starts.size() ? starts[s + 1] : spec.T;
      const Problem alone = slice(p, b, t0, t1, /*withInit=*/s == 0);
      SsdInputs aloneRef;
      Storage aloneStorage;
      const Outputs single = forward(backend, alone, c.dtype, c.chunk, nullptr, aloneRef, aloneStorage);
      const std::string what =
          "alone b" + std::to_string(b) + " [" + std::to_string(t0) + "," + std::to_string(t1) + ")";
      check(c.name, what.c_str(), rows(packed.y, b, t0, t1), single.y, c.dtype, yType, sMax);
      if (s + 1 == starts.size())
        check(c.name, (what + " final").c_str(), batchRow(packed.finalStates, b), single.finalStates, c.dtype,
              rt::DType::Float32, sMax);
      if (cuSeqlens) {
        // The sequence's final state against the float64 recurrence over it alone.
        const SsdResult want = reference(aloneRef, spec.options);
        check(c.name, (what + " varlen").c_str(), batchRow(packed.varlenStates, int64_t(s)), want.finalStates, c.dtype,
              varlenStored(c), sMax);
      }
    }
  }
}

} // namespace

TEST_CASE("mamba2 interpreted: packed sequences (seq_idx) match the reference and each sequence alone",
          "[mamba2][interpreter][seq_idx]") {
  const interp::DType bf16 = interp::DType::BFloat16, f32 = interp::DType::Float32;
  // Row 0: boundaries inside chunks 1 and 2 and on chunk 3's first position (48 = 3 x 16).
  // Row 1: a boundary on a chunk's first position (32), a one-position sequence (32), and one
  // at the very last position (69) of a ragged last chunk.
  const std::vector<std::vector<int64_t>> starts = {{0, 23, 48}, {0, 32, 33, 69}};
  const PackedCase cases[] = {
      {"fp32 chunk 16", f32, 16, 70, starts},
      {"bf16 chunk 16", bf16, 16, 70, starts},
      // The state computed transposed (SWAP), from weighted x (XW), and compute_out in 32-row
      // blocks at chunk 64 (it reads chunk_bmm's blocks below the diagonal).
      {"fp32 chunk 64 swapped state", f32, 64, 150, {{0, 40, 64, 100}}, "fwd_pass_state:10;compute_out:1"},
      {"fp32 chunk 64 x weighted", f32, 64, 150, {{0, 40, 64, 100}}, "fwd_pass_state:12;compute_out:1"},
      // Chunks of 128 walked in parts of 64 rows (SQ): boundaries in either part and on the
      // second part's first position.
      {"fp32 chunk 128 in parts", f32, 128, 300, {{0, 50, 64, 150, 256}}, "fwd_pass_state:20"},
      // bf16 in one row with an empty sequence (its final state is zero).
      {"bf16 chunk 64 empty sequence", bf16, 64, 150, {{0, 40, 40, 100}}},
  };
  for (const PackedCase &c : cases)
    run(c);
}

TEST_CASE("gpu: packed sequences (seq_idx) match the reference and each sequence alone", "[gpu][mamba2][seq_idx]") {
  TILE_REQUIRE_GPU(device);
  const interp::DType bf16 = interp::DType::BFloat16, f32 = interp::DType::Float32;
  const std::vector<std::vector<int64_t>> starts = {{0, 23, 48}, {0, 32, 33, 69}};
  const std::vector<std::vector<int64_t>> longer = {{0, 300, 512, 777}, {0, 1}};
  const PackedCase cases[] = {
      {"gpu fp32 chunk 16", f32, 16, 70, starts},
      {"gpu bf16 chunk 16", bf16, 16, 70, starts},
      // Tensor Core shapes: headdim 64, dstate 128, bf16 at chunks 64 and 128, tuned.
      {"gpu bf16 chunk 128 tuned", bf16, 128, 1000, longer, nullptr, 8, 64, 128},
      {"gpu bf16 chunk 64 tuned", bf16, 64, 1000, longer, nullptr, 8, 64, 128},
      {"gpu bf16 swapped state", bf16, 64, 1000, longer, "fwd_pass_state:10;compute_out:1", 8, 64, 128},
      {"gpu bf16 x weighted", bf16, 64, 1000, longer, "fwd_pass_state:12;compute_out:4", 8, 64, 128},
      {"gpu bf16 in parts", bf16, 128, 1000, longer, "fwd_pass_state:20;compute_out:11", 8, 64, 128},
  };
  for (const PackedCase &c : cases)
    run(c, jit::BackendOptions::Choice::Gpu);
}

TEST_CASE("mamba2: seq_idx must be (b, T) int32", "[mamba2][seq_idx]") {
  SsdTensorTypes types;
  auto set = [&](SsdTensor t, rt::DType dtype, Shape shape) { types[unsigned(t)] = SsdTensorType{dtype, shape}; };
  const rt::DType f32 = rt::DType::Float32;
  set(SsdTensor::X, f32, {2, 10, 4, 8});
  set(SsdTensor::Dt, f32, {2, 10, 4});
  set(SsdTensor::A, f32, {4});
  set(SsdTensor::B, f32, {2, 10, 1, 8});
  set(SsdTensor::C, f32, {2, 10, 1, 8});
  set(SsdTensor::SeqIdx, rt::DType::Int64, {2, 10});
  CHECK_THROWS_WITH(planSsdForward(types, {}), "ssd_forward: seq_idx has dtype int64; expected int32");
  set(SsdTensor::SeqIdx, rt::DType::Int32, {2, 9});
  CHECK_THROWS_WITH(planSsdForward(types, {}), Catch::Contains("seq_idx has shape (2, 9) but expected (b, T)"));
  set(SsdTensor::SeqIdx, rt::DType::Int32, {2, 10});
  const SsdPlan plan = planSsdForward(types, {});
  CHECK(std::get<bool>(plan.launches[2].request().constants.at("HAS_SEQ")));
  CHECK(std::get<bool>(plan.launches[3].request().constants.at("HAS_SEQ")));
}
