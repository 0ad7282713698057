import os
import sys

# The package from this source tree (python/), and its interpreter for host arrays.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tilecc  # noqa: E402

tilecc.install_cuda_tile_alias()
