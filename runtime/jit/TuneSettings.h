// How the autotuner behaves: the environment's knobs, or the same as C++ options.
//
//   TILE_AUTOTUNE=1 (default)  time the configurations on the first launch of each new key
//   TILE_AUTOTUNE=0            never time: the first configuration
//   TILE_AUTOTUNE=table        never time: the choices of an imported table or the tuning
//                              cache, else the first configuration (production)
//   TILE_AUTOTUNE_FORCE=SPEC   pin one configuration: SPEC is RULE[;RULE...], RULE is
//                              [KERNEL:]INDEX or [KERNEL:]NAME=VALUE[,NAME=VALUE...]
//   TILE_AUTOTUNE_PRINT=1      print each tuning's table of timings on stderr
//   TILE_AUTOTUNE_TABLE=FILE   import a tuning table (TuneTable.h) when the tuner is made
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tile::jit {

enum class TuneMode { Tune, Off, TableOnly };

/// One rule of TILE_AUTOTUNE_FORCE: for `kernel` (every kernel when empty), the configuration
/// with this index, or the one whose constants include all of `constants`.
struct ForceRule {
  std::string kernel;
  std::optional<unsigned> index;
  std::map<std::string, std::string> constants; // NAME -> VALUE as formatConstant spells it
  std::string text;                             // the rule as written, for messages
};

/// Parses a TILE_AUTOTUNE_FORCE value; throws rt::Error(InvalidArgument) naming the bad rule.
std::vector<ForceRule> parseForceRules(const std::string &spec);

struct TuneSettings {
  TuneMode mode = TuneMode::Tune;
  std::vector<ForceRule> force;
  bool print = false;
  /// A line on stderr per configuration once a tuning has taken longer than progressAfterMs.
  bool progress = true;
  double progressAfterMs = 1000;
  /// A tuning table to import (TILE_AUTOTUNE_TABLE); empty for none.
  std::string table;

  // How each configuration is timed: `warmup` untimed launches, one timed probe (a probe
  // more than discardFactor times the best median so far drops the configuration), then
  // enough launches for about targetMs, between minLaunches and maxLaunches; the median counts.
  unsigned warmup = 2;
  unsigned minLaunches = 5, maxLaunches = 100;
  double targetMs = 20;
  double discardFactor = 1.5;

  /// The settings the environment gives (the defaults above where a variable is unset);
  /// throws rt::Error(InvalidArgument) naming the variable for a value it does not take.
  static TuneSettings fromEnvironment();
};

} // namespace tile::jit
