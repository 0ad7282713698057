// ssd_forward's three kernels on the interpreter backend (no GPU: this is what CI checks) on tiny
// shapes covering what the GPU tests cover — ragged seqlen, ngroups > 1, D of both shapes, z,
// initial states, dt bias + softplus, dt limits, strided inputs, bf16/fp16/fp32 — against the
// float64 references: y and final_states against reference(), the intermediates (dt_out,
// dA_cumsum, states) against referenceChunked(). Inputs are rounded to the kernel dtype first,
// so the references see exactly what the kernels see. Every comparison prints its figures.
#include "compiler/interpreter/DType.h"
#include "kernels/mamba2/ErrorMetrics.h"
#include "kernels/mamba2/Reference.h"
#include "kernels/mamba2/SsdForward.h"
#include "test/unit/mamba2/Mamba2TestUtil.h"
#include "test/unit/mamba2/SsdConfigs.h"
#include "test/unit/mamba2/StoredTensor.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <sstream>
#include <string>

using namespace tile;
using namespace tile::mamba2;
using tile::mamba2::test::interpreter;
using tile::mamba2::test::Problem;
using tile::mamba2::test::ProblemSpec;
using tile::mamba2::test::Stored;

namespace {

// A problem's inputs and initial states stored contiguous in fp32, as ssdForward's arguments.
struct StoredF32Inputs {
  Stored x, dt, A, B, C, init;
  explicit StoredF32Inputs(const Problem &p)
      : x(p.x, kF32, false), dt(p.dt, kF32, false), A(p.A, kF32, false), B(p.B, kF32, false), C(p.C, kF32, false),
        init(p.initialStates, kF32, false) {}
  SsdArrayInputs arrays() const { return {x.array, dt.array, A.array, B.array, C.array, {}, {}, {}, init.array}; }
  static constexpr interp::DType kF32 = interp::DType::Float32;
};

struct Case {
  const char *name;
  ProblemSpec spec;
  int chunk = 16;
  interp::DType dtype = interp::DType::Float32; // of x, z, B, C (dt, A, D, bias, init: fp32)
  bool strided = false;                         // x, z, B, C as padded views
  double yTol = 1e-5;                           // on y's max abs error / RMS
  MatmulPrecision precision = MatmulPrecision::Native;
  std::optional<rt::DType> outputDType; // of y; default x's
};

// C.B^T of each chunk from the rounded inputs, in float64: the blocks chunk_bmm writes (row
// block qb, column block kb <= qb, in blocks of bq, its BQ) — the rest of cb is never written.
// The value of NAME in a configuration label ("BN=32 BP=64 BQ=64 HB=1"); -1 when absent.
int64_t labelValue(const std::string &label, const std::string &name) {
  std::istringstream words(label);
  for (std::string word; words >> word;)
    if (word.rfind(name + "=", 0) == 0)
      return std::stoll(word.substr(name.size() + 1));
  return -1;
}

void checkCB(const Tensor &cb, rt::DType dtype, const SsdInputs &in, int64_t Q, int64_t bq, const char *name) {
  const bool bf16 = dtype == rt::DType::BFloat16;
  const int64_t b = cb.shape[0], nc = cb.shape[1], G = cb.shape[2], T = in.x.shape[1], N = in.B.shape[3];
  double worst = 0, sumSq = 0;
  int64_t count = 0;
  for (int64_t bi = 0; bi < b; ++bi)
    for (int64_t c = 0; c < nc; ++c)
      for (int64_t g = 0; g < G; ++g)
        for (int64_t i = 0; i < Q; ++i)
          for (int64_t j = 0; j < Q; ++j) {
            if (j / bq > i / bq)
              continue;
            double ref = 0;
            const int64_t ti = c * Q + i, tj = c * Q + j;
            if (ti < T && tj < T)
              for (int64_t n = 0; n < N; ++n)
                ref += in.C({bi, ti, g, n}) * in.B({bi, tj, g, n});
            const double got = cb.data[size_t((((bi * nc + c) * G + g) * Q + i) * Q + j)];
            // bf16 storage (bf16 products) rounds to 8 significant bits: half a unit in the last place.
            const double stored = bf16 ? std::abs(ref) * 0x1p-8 : 0;
            worst = std::max(worst, std::abs(got - ref) - stored);
            sumSq += ref * ref, ++count;
          }
  const double rms = count ? std::sqrt(sumSq / double(count)) : 0;
  std::printf("ssd interpreted %-38s %-13s max abs err past storage rounding %.3g (rms %.3g, %lld values)\n", name,
              "CB", worst, rms, (long long)count);
  // Products of inputs that are exact in every operand type: only f32 accumulation rounds (and
  // the bf16 storage, taken off above).
  CHECK(worst <= 1e-5 * std::max(1.0, rms) * double(N));
}

void report(const char *name, const char *what, const ErrorStats &s, const Shape &shape) {
  std::printf("ssd interpreted %-38s %-13s %s\n", name, what, s.str(shape).c_str());
}

// Runs a case on `backend` and checks every output; returns the configurations that ran.
std::array<SsdKernelChoice, 4> run(const Case &c, jit::Backend &backend = interpreter()) {
  INFO("case " << c.name << ": " << c.spec.str() << " chunk " << c.chunk);
  const Problem p(c.spec, 11);
  const interp::DType f32 = interp::DType::Float32;
  std::vector<std::unique_ptr<Stored>> keep;
  auto store = [&](const Tensor &t, interp::DType dtype, bool strided) -> const Stored & {
    keep.push_back(std::make_unique<Stored>(t, dtype, strided, backend));
    return *keep.back();
  };
  const Stored &x = store(p.x, c.dtype, c.strided), &dt = store(p.dt, f32, false), &A = store(p.A, f32, false),
               &B = store(p.B, c.dtype, c.strided), &C = store(p.C, c.dtype, c.strided);
  SsdArrayInputs in{x.array, dt.array, A.array, B.array, C.array, {}, {}, {}, {}};
  SsdInputs ref{x.rounded, dt.rounded, A.rounded, B.rounded, C.rounded, {}, {}, {}, {}};
  if (c.spec.dRank) {
    const Stored &s = store(p.D, f32, false);
    in.D = s.array, ref.D = s.rounded.view();
  }
  if (c.spec.z) {
    const Stored &s = store(p.z, c.dtype, c.strided);
    in.z = s.array, ref.z = s.rounded.view();
  }
  if (c.spec.dtBias) {
    const Stored &s = store(p.dtBias, f32, false);
    in.dtBias = s.array, ref.dtBias = s.rounded.view();
  }
  if (c.spec.initialStates) {
    const Stored &s = store(p.initialStates, f32, false);
    in.initialStates = s.array, ref.initialStates = s.rounded.view();
  }
  ForwardOptions options;
  options.chunkSize = c.chunk;
  options.dt = c.spec.options;
  options.precision = c.precision;
  options.outputDType = c.outputDType;

  const SsdOutputs outputs = ssdForward(backend, in, options);
  struct {
    Tensor y, finalStates, dtOut, dACumsum, states;
  } out{outputs.y.values(), outputs.finalStates.values(), outputs.dtOut.values(), outputs.dACumsum.values(),
        outputs.states.values()};
  const SsdResult expected = reference(ref, options.dt);
  const ChunkedResult chunked = referenceChunked(ref, c.chunk, options.dt);

  // y is stored in x's dtype: for 16-bit data its rounding (a few 1e-3 of the value) dominates.
  // dt and its cumulative sum are fp32 computed exactly per op, so they agree to fp32 rounding.
  // States are matrix products: exact fp32 products for fp32 data; for 16-bit data the
  // decay-weighted B is rounded to the operand type: 11 significant bits in tf32 and fp16
  // (2^-11 ~ 4.9e-4 per factor), 8 in bf16 (2^-8 ~ 3.9e-3); over K = Q terms the errors
  // partly cancel, and the measured state errors sit at 1-2x the per-factor rounding.
  const bool bf16Products = c.dtype == interp::DType::BFloat16 && c.precision == MatmulPrecision::Native;
  // fp32 data: the chunk's cumulative sums of dA carry ~Q * 2^-24 relative error into the
  // decays, so the bound grows with chunks longer than 32.
  const double fp32Tol = 1e-5 * std::max(1.0, c.chunk / 32.0);
  // (bf16: 2e-2, about 5 roundings of 2^-8, the GPU test's bound; the max grows with the
  // number of elements: 1.5e-2 of the RMS is reached at nheads 16, headdim 64. tf32 and fp16:
  // 3e-3, about 6 roundings of 2^-11; the XW configurations, which round x.w instead of B.w,
  // reach 2.1e-3 over 262144 states.)
  const double stateTol = c.dtype == interp::DType::Float32 ? fp32Tol : bf16Products ? 2e-2 : 3e-3;
  // Elementwise: the precision-derived bound of Mamba2TestUtil.h, no element outside it.
  const bool tf32 = c.precision == MatmulPrecision::TF32;
  const rt::DType data = static_cast<rt::DType>(c.dtype);
  const double sMax = tile::mamba2::test::maxAbs(out.dACumsum);
  using tile::mamba2::test::ssdTolerance;
  const auto ty = ssdTolerance(data, tf32, outputs.y.view.dtype, rms(expected.y), sMax);
  const auto tfs = ssdTolerance(data, tf32, rt::DType::Float32, rms(expected.finalStates), sMax);
  const auto tst = ssdTolerance(data, tf32, outputs.states.view.dtype, rms(chunked.states), sMax);
  const ErrorStats ey = compare(out.y, expected.y, ty.atol, ty.rtol);
  const ErrorStats es = compare(out.finalStates, expected.finalStates, tfs.atol, tfs.rtol);
  const ErrorStats edt = compare(out.dtOut, chunked.dt, 1e-6, 1e-5);
  const ErrorStats ecs = compare(out.dACumsum, chunked.dACumsum, 1e-6, 1e-5);
  const ErrorStats est = compare(out.states, chunked.states, tst.atol, tst.rtol);
  report(c.name, "y", ey, out.y.shape);
  report(c.name, "final_states", es, out.finalStates.shape);
  report(c.name, "dt_out", edt, out.dtOut.shape);
  report(c.name, "dA_cumsum", ecs, out.dACumsum.shape);
  report(c.name, "states", est, out.states.shape);
  // chunk_bmm runs when compute_out's configuration reads it (row blocks smaller than the chunk).
  const bool cbRead = labelValue(outputs.choices[3].label, "BQ") < c.chunk;
  CHECK(outputs.choices[1].skipped == !cbRead);
  CHECK((outputs.cbBlock == 0) == !cbRead);
  if (cbRead)
    checkCB(outputs.cb.values(), outputs.cb.view.dtype, ref, c.chunk, outputs.cbBlock, c.name);
  CHECK(ey.relToRms < c.yTol);
  CHECK(ey.outside == 0);
  for (const ErrorStats *s : {&edt, &ecs}) {
    CHECK(s->relToRms < 1e-5);
    CHECK(s->outside == 0);
  }
  for (const ErrorStats *s : {&es, &est}) {
    CHECK(s->relToRms < stateTol);
    CHECK(s->outside == 0);
  }
  return outputs.choices;
}

} // namespace

TEST_CASE("mamba2 interpreted: ssd_forward's kernels match the float64 references", "[mamba2][interpreter]") {
  const interp::DType bf16 = interp::DType::BFloat16, f16 = interp::DType::Float16, f32 = interp::DType::Float32;
  const auto spec = ProblemSpec::of;
  std::vector<Case> cases;
  {
    // Ragged seqlen (40 = 2.5 chunks), two sequences, D per head, dt bias + softplus.
    Case c{"ragged fp32 D(H) bias softplus", spec(2, 40, 4, 8, 1, 8)};
    c.spec.dRank = 1, c.spec.dtBias = true, c.spec.options.dtSoftplus = true;
    cases.push_back(c);
  }
  {
    // bf16 data with two groups, D per (head, channel), the z gate and initial states.
    Case c{"groups2 bf16 D(H,P) z init", spec(1, 37, 4, 16, 2, 16), 16, bf16};
    c.spec.dRank = 2, c.spec.z = true, c.spec.initialStates = true;
    c.yTol = 2e-2;
    cases.push_back(c);
  }
  {
    // Every option at once in fp32, one group per head, chunk 32, strided views.
    Case c{"groups=heads fp32 all options strided", spec(1, 45, 4, 16, 4, 8), 32, f32, true};
    c.spec.dRank = 1, c.spec.z = true, c.spec.initialStates = true, c.spec.dtBias = true;
    c.spec.options.dtSoftplus = true;
    cases.push_back(c);
  }
  {
    // Dimensions that are not powers of two (H = 6: a padded head block; P = 12: a padded
    // P block), three groups, dt limits, fp16.
    Case c{"H6 P12 groups3 fp16 dt limits", spec(1, 20, 6, 12, 3, 8), 16, f16};
    c.spec.options.dtMin = 0.02, c.spec.options.dtMax = 0.3;
    c.yTol = 5e-3;
    cases.push_back(c);
  }
  {
    // The same bf16 problem with tf32 products (the precision option).
    Case c{"groups2 bf16 tf32 products", spec(1, 37, 4, 16, 2, 16), 16, bf16};
    c.spec.dRank = 2, c.spec.z = true, c.spec.initialStates = true;
    c.precision = MatmulPrecision::TF32;
    c.yTol = 2e-2;
    cases.push_back(c);
  }
  {
    // Chunk 128 with 64-row blocks: two row blocks per chunk, so compute_out skips the block
    // above the diagonal and reads the two below it; ragged last chunk, bf16, D and z.
    Case c{"chunk128 two row blocks bf16", spec(1, 200, 2, 8, 1, 16), 128, bf16};
    c.spec.dRank = 1, c.spec.z = true, c.spec.initialStates = true;
    c.yTol = 5e-2; // bf16 products and a bf16 y: the bound the peer's cases meet
    cases.push_back(c);
  }
  {
    // bf16 data whose y the caller's initial states dominate (8 positions, dstate 256), y in
    // float32 so that no rounding of y hides the products' error: the states array holds the
    // state entering chunk 0 rounded to bf16, and compute_out adds the product of the rest
    // (initial_state_remainder). Without it y's error is 6.2e-3 of its RMS here, with it 1.0e-3.
    Case c{"bf16 initial states, float32 y", spec(1, 8, 2, 32, 1, 256), 16, bf16};
    c.spec.initialStates = true;
    c.outputDType = rt::DType::Float32;
    c.yTol = 3e-3;
    cases.push_back(c);
  }
  {
    // Chunk 256: four row blocks, two sequences, fp32 (exact products), two groups.
    Case c{"chunk256 four row blocks fp32", spec(2, 300, 2, 8, 2, 8), 256, f32};
    c.spec.dtBias = true, c.spec.options.dtSoftplus = true;
    c.yTol = 8e-5; // fp32Tol at chunk 256 (see run)
    cases.push_back(c);
  }
  for (const Case &c : cases)
    run(c);
}

TEST_CASE("mamba2 interpreted: every autotune configuration of every kernel matches the references",
          "[mamba2][interpreter][autotune]") {
  // Large enough that no configuration fits to another's block sizes (H 16 in 2 groups, P 64,
  // N 128, chunk 64; two chunks, the last ragged), with D, z and initial states. fp32 data: exact products,
  // so a configuration that misplaces one block's contribution cannot hide in the rounding.
  ProblemSpec spec;
  spec.b = 1, spec.T = 80, spec.H = 16, spec.P = 64, spec.G = 2, spec.N = 128;
  spec.dRank = 1, spec.z = true, spec.initialStates = true;
  Case c{"every config fp32", spec, 64, interp::DType::Float32};
  c.yTol = 2e-5; // fp32Tol at chunk 64 (see run)
  // The plan's variants for this problem: each kernel's configurations, none merged.
  SsdTensorTypes types;
  auto set = [&](SsdTensor t, rt::DType dtype, Shape shape) { types[unsigned(t)] = SsdTensorType{dtype, shape}; };
  const rt::DType f32 = rt::DType::Float32;
  set(SsdTensor::X, f32, {1, 80, 16, 64});
  set(SsdTensor::Z, f32, {1, 80, 16, 64});
  set(SsdTensor::Dt, f32, {1, 80, 16});
  set(SsdTensor::A, f32, {16});
  set(SsdTensor::D, f32, {16});
  set(SsdTensor::B, f32, {1, 80, 2, 128});
  set(SsdTensor::C, f32, {1, 80, 2, 128});
  set(SsdTensor::InitialStates, f32, {1, 16, 64, 128});
  ForwardOptions options;
  options.chunkSize = 64;
  const SsdPlan plan = planSsdForward(types, options);
  // ssd.py's lists; compute_out's 16, 32 and 40 heads per block fit to this problem's 8 heads
  // per group: configuration 5's sizes (merged); 16 heads at 1 block per SM stays, and the
  // three 256-thread ones become one (64 rows, 8 heads).
  const std::array<size_t, 4> expectedConfigs = {3, 4, 20, 9};
  for (size_t k = 0; k < plan.launches.size(); ++k) {
    const SsdLaunch &l = plan.launches[k];
    CHECK(l.variants.size() == expectedConfigs[k]);
    for (const SsdVariant &v : l.variants) {
      const std::string rule = l.request().kernel + ":" + std::to_string(v.candidate.config);
      INFO("TILE_AUTOTUNE_FORCE=" << rule << " (" << v.candidate.label() << ")");
      jit::Backend backend(test::interpreterForcing(rule));
      const std::array<SsdKernelChoice, 4> ran = run(c, backend);
      // The forced kernel ran in that configuration, the others in configuration 0.
      for (size_t j = 0; j < ran.size(); ++j) {
        CHECK(ran[j].config == (j == k ? v.candidate.config : 0u));
        CHECK(ran[j].source == (j == k ? jit::TuneSource::Forced : jit::TuneSource::Disabled));
      }
      CHECK(ran[k].label == v.candidate.label());
    }
  }
}

TEST_CASE("mamba2 interpreted: mixed configurations at chunks 128 and 256 over every option",
          "[mamba2][interpreter][autotune]") {
  // The runs of configRuns (SsdConfigs.h): every configuration of every kernel together with
  // other kernels' configurations (chunk_bmm and compute_out at different BQ), at chunks of 128
  // and 256 (2 to 8 row blocks), over three problems that hold every option between them:
  // ragged T, ngroups > 1 and = nheads, D per head and per channel, z, initial states, dt bias
  // + softplus, dt limits, strided views, bf16/fp16/fp32 data and tf32 products. nheads 16,
  // headdim 64, dstate 128: no two configurations of a kernel fit to the same block sizes.
  const interp::DType bf16 = interp::DType::BFloat16, f16 = interp::DType::Float16, f32 = interp::DType::Float32;
  auto spec = [](int64_t T, int64_t G) {
    ProblemSpec s;
    s.b = 1, s.T = T, s.H = 16, s.P = 64, s.G = G, s.N = 128;
    return s;
  };
  std::vector<Case> problems;
  {
    Case c{"bf16 D(H) z init groups2", spec(130, 2), 128, bf16};
    c.spec.dRank = 1, c.spec.z = true, c.spec.initialStates = true;
    c.yTol = 7.5e-2; // the bf16 bound of SsdGpuTest (the max over 133120 elements reaches 5.1e-2)
    problems.push_back(c);
  }
  {
    Case c{"fp32 D(H,P) bias softplus strided", spec(260, 1), 256, f32, true};
    c.spec.dRank = 2, c.spec.dtBias = true, c.spec.options.dtSoftplus = true;
    c.yTol = 8e-5; // fp32Tol at chunk 256 (see run)
    problems.push_back(c);
  }
  {
    Case c{"fp16 tf32 groups=heads dt limits", spec(130, 16), 128, f16};
    c.spec.options.dtMin = 0.02, c.spec.options.dtMax = 0.3;
    c.precision = MatmulPrecision::TF32;
    c.yTol = 5e-3;
    problems.push_back(c);
  }
  const std::vector<std::string> runs = tile::mamba2::test::configRuns();
  for (size_t r = 0; r < runs.size(); ++r) {
    // The second half shifts the problems by one, so each configuration meets two of them.
    Case c = problems[(r + r / (runs.size() / 2)) % problems.size()];
    const std::string name = std::string(c.name) + " [" + runs[r] + "]";
    c.name = name.c_str();
    INFO("TILE_AUTOTUNE_FORCE=" << runs[r]);
    jit::Backend backend(test::interpreterForcing(runs[r]));
    const std::array<SsdKernelChoice, 4> ran = run(c, backend);
    for (const SsdKernelChoice &k : ran)
      CHECK(k.source == jit::TuneSource::Forced);
  }
}

TEST_CASE("mamba2 interpreted: block sizes fit small shapes, merging configurations", "[mamba2][autotune]") {
  // P = 8, N = 16, H = 4, chunk 16: every configuration of a kernel fits to the same sizes;
  // fwd_pass_state's then differ only in their occupancy (3, 2 and 4), SWAP (at 3 and 4), XW and TMA, so ten stay, and
  // compute_out's in theirs (1 to 4), their heads per block (1, and 8 to 40 fitted to the 4 heads
  // of the group) and their threads (128 or 256), so five do.
  SsdTensorTypes types;
  auto set = [&](SsdTensor t, Shape shape) { types[unsigned(t)] = SsdTensorType{rt::DType::Float32, shape}; };
  set(SsdTensor::X, {1, 40, 4, 8});
  set(SsdTensor::Dt, {1, 40, 4});
  set(SsdTensor::A, {4});
  set(SsdTensor::B, {1, 40, 1, 16});
  set(SsdTensor::C, {1, 40, 1, 16});
  ForwardOptions options;
  options.chunkSize = 16;
  const SsdPlan plan = planSsdForward(types, options);
  for (const SsdLaunch &l : plan.launches) {
    INFO(l.request().kernel);
    CHECK(l.variants.size() == (l.request().kernel == "fwd_pass_state" ? 10u
                                : l.request().kernel == "compute_out"  ? 5u
                                                                       : 1u));
    CHECK(l.variants[0].candidate.config == 0);
  }
  CHECK(plan.launches[0].variants[0].candidate.label() == "BH=4");
  CHECK(plan.launches[1].variants[0].candidate.label() == "BN=16 BQ=16");
  CHECK(plan.launches[2].variants[0].candidate.label() == "BN=16 BP=8 occupancy=3");
  CHECK(plan.launches[2].variants[1].candidate.label() == "BN=16 BP=8 occupancy=2");
  CHECK(plan.launches[2].variants[2].candidate.label() == "BN=16 BP=8 occupancy=4");
  CHECK(plan.launches[3].variants[0].candidate.label() == "BN=16 BP=8 BQ=16 HB=1");
  CHECK(plan.launches[3].grid() == std::array<int64_t, 3>{3, 1, 4});
  const SsdVariant &fourHeads = plan.launches[3].variants[2];
  CHECK(fourHeads.candidate.label() == "BN=16 BP=8 BQ=16 HB=4 occupancy=2");
  CHECK(fourHeads.grid == std::array<int64_t, 3>{3, 1, 1});
  CHECK(fourHeads.candidate.config == 5);
  // 16, 32 and 40 heads per block fit to the group's 4 as well.
  CHECK(fourHeads.candidate.merged == std::vector<unsigned>{7, 8, 9});
  // Configuration 6 (N blocks of 128 at 4 per SM) became configuration 3 (N blocks of 32 at 4
  // per SM): forcing index 6 runs it.
  CHECK(plan.launches[3].variants[1].candidate.config == 3);
  CHECK(plan.launches[3].variants[1].candidate.merged == std::vector<unsigned>{6});
  // The key names come from ssd.py's key= lists.
  CHECK(plan.launches[3].keyNames == std::vector<std::string>{"headdim", "dstate", "Q", "nheads", "ngroups"});
}

TEST_CASE("mamba2 interpreted: the plan picks the chunk size when the caller leaves it at 0", "[mamba2][autotune]") {
  auto planFor = [](rt::DType dtype, std::int64_t N, MatmulPrecision precision, int chunk) {
    SsdTensorTypes types;
    auto set = [&](SsdTensor t, rt::DType d, Shape shape) { types[unsigned(t)] = SsdTensorType{d, shape}; };
    set(SsdTensor::X, dtype, {1, 300, 4, 64});
    set(SsdTensor::Dt, rt::DType::Float32, {1, 300, 4});
    set(SsdTensor::A, rt::DType::Float32, {4});
    set(SsdTensor::B, dtype, {1, 300, 1, N});
    set(SsdTensor::C, dtype, {1, 300, 1, N});
    ForwardOptions options;
    options.chunkSize = chunk;
    options.precision = precision;
    return planSsdForward(types, options);
  };
  const auto bf16 = rt::DType::BFloat16, f16 = rt::DType::Float16, f32 = rt::DType::Float32;
  const auto native = MatmulPrecision::Native, tf32 = MatmulPrecision::TF32;
  // 16-bit data with native products and dstate >= 128: chunk 128 (half the chunk-entry states).
  CHECK(planFor(bf16, 128, native, 0).chunkSize == 128);
  CHECK(planFor(f16, 256, native, 0).chunkSize == 128);
  CHECK(planFor(bf16, 128, native, 0).numChunks == 3);
  // Smaller states, tf32 products or fp32 data: chunk 64. A chunk the caller gives is kept.
  CHECK(planFor(bf16, 64, native, 0).chunkSize == 64);
  CHECK(planFor(bf16, 128, tf32, 0).chunkSize == 64);
  CHECK(planFor(f32, 128, native, 0).chunkSize == 64);
  CHECK(planFor(bf16, 128, native, 32).chunkSize == 32);
  CHECK(defaultChunkSize(128, bf16, native) == 128);
  CHECK(defaultChunkSize(64, bf16, native) == 64);
  // fwd_pass_state's configuration in 64-row parts (ssd.py's configuration 20) stays a variant
  // of its own at chunk 128 and merges with the whole-chunk one of the same blocks and
  // occupancy at chunk 64.
  auto parts = [](const SsdPlan &plan) {
    for (const SsdVariant &v : plan.launches[2].variants)
      if (v.candidate.label().find("SQ=64") != std::string::npos)
        return true;
    return false;
  };
  CHECK(parts(planFor(bf16, 128, native, 128)));
  const SsdPlan at64 = planFor(bf16, 128, native, 64);
  CHECK_FALSE(parts(at64));
  bool merged = false;
  for (const SsdVariant &v : at64.launches[2].variants)
    for (unsigned m : v.candidate.merged)
      merged |= v.candidate.label() == "BN=64 BP=64 occupancy=3" && m == 20u;
  CHECK(merged);
}

TEST_CASE("mamba2 interpreted: checks the inputs like the GPU path", "[mamba2][interpreter]") {
  Stored x(Tensor({1, 16, 4, 8}), interp::DType::Float32, false), dt(Tensor({1, 16, 4}), interp::DType::Float32, false),
      A(Tensor({4}), interp::DType::Float32, false), B(Tensor({1, 16, 3, 8}), interp::DType::Float32, false);
  SsdArrayInputs in{x.array, dt.array, A.array, B.array, B.array, {}, {}, {}, {}};
  CHECK_THROWS_WITH(ssdForward(interpreter(), in), Catch::Contains("nheads 4 is not divisible by ngroups 3"));
  Stored b64(Tensor({1, 16, 2, 8}), interp::DType::Float64, false);
  in.B = in.C = b64.array;
  CHECK_THROWS_WITH(ssdForward(interpreter(), in), Catch::Contains("B has dtype float64"));
  Stored b2(Tensor({1, 16, 2, 8}), interp::DType::Float32, false);
  in.B = in.C = b2.array;
  ForwardOptions options;
  options.chunkSize = 8;
  CHECK_THROWS_WITH(ssdForward(interpreter(), in, options),
                    Catch::Contains("chunk_size 8 must be a power of two from 16"));
}

TEST_CASE("mamba2 interpreted: shapes whose outputs would overflow are refused", "[mamba2][interpreter]") {
  // Consistent shapes whose y (b, T, H, P) has more than 2^64 bytes: the size used to wrap and
  // allocate a small buffer the kernels would overrun.
  auto array = [](std::vector<std::int64_t> shape) {
    tile::rt::ArrayArg a;
    a.dtype = tile::rt::DType::Float32;
    a.shape = std::move(shape);
    return a;
  };
  const std::int64_t b = std::int64_t(1) << 30, T = std::int64_t(1) << 30;
  SsdArrayInputs in{
      array({b, T, 8, 64}), array({b, T, 8}), array({8}), array({b, T, 1, 16}), array({b, T, 1, 16}), {}, {}, {}, {}};
  CHECK_THROWS_WITH(ssdForward(interpreter(), in), Catch::Contains("is too large"));
}

TEST_CASE("mamba2 interpreted: an empty sequence passes initial_states through", "[mamba2][interpreter]") {
  // No chunks: chunk_cumsum and compute_out have no blocks and are skipped; fwd_pass_state still
  // runs its loop zero times and writes final_states = initial_states.
  ProblemSpec spec;
  spec.b = 2, spec.T = 0, spec.H = 2, spec.P = 8, spec.G = 1, spec.N = 16, spec.initialStates = true;
  const Problem p(spec, 3);
  const StoredF32Inputs stored(p);
  const SsdArrayInputs in = stored.arrays();
  ForwardOptions options;
  options.chunkSize = 16;
  SsdTimings timings;
  const SsdOutputs out = ssdForward(interpreter(), in, options, nullptr, &timings);
  CHECK(out.y.values().numElements() == 0);
  CHECK(out.states.view.shape == Shape{2, 0, 2, 8, 16});
  CHECK(out.finalStates.values().data == stored.init.rounded.data);
  CHECK(timings.chunkCumsumMs == 0);
  CHECK(timings.chunkBmmMs == 0);
  CHECK(timings.computeOutMs == 0);
}

TEST_CASE("mamba2 interpreted: a timed call repeats the pass with the same results", "[mamba2][interpreter]") {
  // SsdTimings::repeats runs the launches back to back (as a benchmark enqueues calls): the
  // kernels are idempotent, so the outputs are those of one pass, and the end-to-end time is
  // per pass.
  ProblemSpec spec;
  spec.b = 1, spec.T = 40, spec.H = 2, spec.P = 8, spec.G = 1, spec.N = 16, spec.initialStates = true;
  const Problem p(spec, 5);
  const StoredF32Inputs stored(p);
  const SsdArrayInputs in = stored.arrays();
  ForwardOptions options;
  options.chunkSize = 16;
  const SsdOutputs once = ssdForward(interpreter(), in, options);
  SsdTimings timings;
  timings.repeats = 3;
  const SsdOutputs thrice = ssdForward(interpreter(), in, options, nullptr, &timings);
  CHECK(timings.repeats == 3);
  CHECK(thrice.y.values().data == once.y.values().data);
  CHECK(thrice.finalStates.values().data == once.finalStates.values().data);
  CHECK(thrice.states.values().data == once.states.values().data);
  CHECK(timings.endToEndMs > 0);
  CHECK(timings.fwdPassStateMs > 0);
  SsdTimings zero;
  zero.repeats = 0; // taken as one pass
  ssdForward(interpreter(), in, options, nullptr, &zero);
  CHECK(zero.repeats == 1);
}

TEST_CASE("mamba2 interpreted: ssdForwardInto writes the caller's outputs and checks them", "[mamba2][interpreter]") {
  ProblemSpec spec;
  spec.b = 1, spec.T = 40, spec.H = 2, spec.P = 8, spec.G = 1, spec.N = 16, spec.initialStates = true;
  const Problem p(spec, 7);
  const StoredF32Inputs stored(p);
  const SsdArrayInputs in = stored.arrays();
  ForwardOptions options;
  options.chunkSize = 16;
  jit::Backend &backend = interpreter();
  const SsdOutputs want = ssdForward(backend, in, options);
  // The caller's memory: buffers of the plan's dtypes and shapes.
  std::vector<jit::Buffer> buffers;
  auto like = [&](const SsdOutput &o) {
    buffers.push_back(backend.allocate(o.buffer.size()));
    return buffers.back().array(o.view.dtype, o.view.shape);
  };
  SsdArrayOutputs out{like(want.y),        like(want.finalStates), like(want.dtOut),
                      like(want.dACumsum), like(want.states),      like(want.cb)};
  const SsdRun run = ssdForwardInto(backend, in, out, options, nullptr, nullptr, /*wait=*/false);
  CHECK(run.chunkSize == 16);
  const auto y = buffers[0].toHost<float>();
  const auto yWant = want.y.buffer.toHost<float>();
  CHECK(y == yWant);
  CHECK(buffers[1].toHost<float>() == want.finalStates.buffer.toHost<float>());

  // A cache of prepared passes: the second call of the shapes launches what the first chose.
  SsdPassCache cache;
  buffers[0].fillBytes(0);
  ssdForwardInto(backend, in, out, options, nullptr, nullptr, true, &cache);
  CHECK(cache.size() == 1);
  buffers[0].fillBytes(0);
  const SsdRun again = ssdForwardInto(backend, in, out, options, nullptr, nullptr, true, &cache);
  CHECK(cache.size() == 1);
  CHECK(again.chunkSize == 16);
  CHECK(buffers[0].toHost<float>() == yWant);
  ForwardOptions other = options;
  other.chunkSize = 32; // another plan: other intermediates' shapes, another entry
  CHECK_THROWS_WITH(ssdForwardInto(backend, in, out, other, nullptr, nullptr, true, &cache),
                    Catch::Contains("output dt_out has shape"));

  SsdArrayOutputs wrong = out;
  wrong.y.dtype = rt::DType::Float16;
  CHECK_THROWS_WITH(ssdForwardInto(backend, in, wrong, options),
                    Catch::Contains("output y has dtype float16, the plan writes float32"));
  wrong = out;
  wrong.finalStates.shape[0] = 2;
  CHECK_THROWS_WITH(ssdForwardInto(backend, in, wrong, options),
                    Catch::Contains("output final_states has shape (2, 2, 8, 16), expected (1, 2, 8, 16)"));
  wrong = out;
  wrong.states.strides = {1, 1, 1, 1, 1};
  CHECK_THROWS_WITH(ssdForwardInto(backend, in, wrong, options), Catch::Contains("output states is not contiguous"));
  wrong = out;
  wrong.cb.data = 0;
  CHECK_THROWS_WITH(ssdForwardInto(backend, in, wrong, options), Catch::Contains("output CB has no memory"));
}
