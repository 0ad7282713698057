// What a tuning decision depends on, and what it chooses between.
//
// A kernel's configurations (its @ct.autotune list, after the caller fitted them to the
// shape: see TuneCandidate) are timed once per key. The key holds the kernel (source and
// name), the constants that no configuration sets, the argument dtypes and ranks, the
// autotune key= values bucketed to powers of two, the launch's block count bucketed the same
// way (so a small batch and a large one may choose differently), the candidates themselves,
// the device's name, the driver and compiler versions and the target options.
#pragma once

#include "runtime/TuneBucket.h"
#include "runtime/jit/Jit.h"
#include "runtime/jit/TuneRecord.h" // tuneKeyFields

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tile::jit {

/// One configuration to time: the @ct.autotune index it comes from and the constants that set
/// it apart (as formatConstant spells the values).
struct TuneCandidate {
  unsigned config = 0;
  std::map<std::string, std::string> constants;
  /// "BQ=64 BN=32" ("config 0" when it has no constants).
  std::string label() const;
  /// Other declared configurations this one stands for (they fit the shape to the same
  /// constants): a TILE_AUTOTUNE_FORCE index naming one of them picks this candidate.
  std::vector<unsigned> merged;
};

struct TuneKey {
  std::string kernel;
  /// Every field, one "name=value" per line: compared in full when a stored decision is read.
  std::string text;
  /// 32 hex digits of the text's SHA-256: the name of the tuning file.
  std::string digest;
  /// For messages: "compute_out headdim=64 dstate=128 Q=256 blocks~2^12".
  std::string summary;

  /// A key over these exact fields (tests, and TuneKeyBuilder below).
  static TuneKey make(std::string kernel, const std::vector<std::pair<std::string, std::string>> &fields,
                      std::string summary);
};

/// The digest of a key's text (TuneKey::digest).
std::string tuneDigest(const std::string &text);

/// The smallest power of two >= v (0 for v <= 0): rt::bucketPow2, shared with launchers.
using rt::bucketPow2;

/// The digest a key gives a kernel source (its "source" field).
std::string tuneSourceDigest(const std::string &source);

/// The inputs of a launch's key.
struct TuneKeyInputs {
  /// The request of any candidate: its source, kernel name, constants and argument types.
  KernelRequest request;
  /// The kernel's autotune key= names and their values (each bucketed to a power of two).
  std::vector<std::string> keyNames;
  std::map<std::string, int64_t> values;
  /// Blocks in the launch's grid (bucketed).
  int64_t blocks = 0;
  /// Device name, driver version, target (arch, threads, optimisation, PTX or cubin).
  std::string device, driver, target;
};

/// The key of a launch; throws rt::Error(InvalidArgument) when a key= name has no value.
TuneKey makeTuneKey(const TuneKeyInputs &inputs, const std::vector<TuneCandidate> &candidates);

} // namespace tile::jit
