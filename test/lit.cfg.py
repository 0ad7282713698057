# lit configuration for tile-cc. Test folders mirror the source folders.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "tile-cc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".py", ".tile"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "unit", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
llvm_config.with_system_environment(["HOME", "TMPDIR"])
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tile_tools_dir, append_path=True)

# Our tools resolve through PATH (set above) rather than substitutions, so option values such
# as `--emit=tile-opt` are left alone.

config.substitutions.append(("%tile_src", config.tile_src_root))

if config.tile_have_cuda:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.tile_ptxas))
