# The launcher generator against hostile names: parameters named like the generated code's own
# functions and parameters (embedded, stream and stream_ together, grid), C++ keywords and
# macros that are Python identifiers (true, NULL); namespaces that would capture the
# runtime's or the standard library's names (app::tile, app::std); a newline in the input's
# path. The generated source compiles in every case; what cannot be generated is refused.
# RUN: rm -rf %t && mkdir %t
# RUN: tile-cc %s --kernel k --const B=16 --arg x=f32:1 --arg embedded=f32:1 --arg stream=f32:0 --arg stream_=f32:0 --arg true=i32:0 --arg NULL=i32:0 --arg grid=f32:0 --emit=launcher --ptx-only --launcher-namespace app::tile -o %t/tile.h
# RUN: FileCheck %s --check-prefix=NAMES < %t/tile.h
# RUN: c++ -std=c++17 -fsyntax-only -I %tile_src -I %t %t/tile.cpp
# RUN: tile-cc %s --kernel k --const B=16 --arg x=f32:1 --arg embedded=f32:1 --arg stream=f32:0 --arg stream_=f32:0 --arg true=i32:0 --arg NULL=i32:0 --arg grid=f32:0 --emit=launcher --ptx-only --launcher-namespace app::std -o %t/std.h
# RUN: c++ -std=c++17 -fsyntax-only -I %tile_src -I %t %t/std.cpp
# A newline in the input's path stays inside the comment (shell-quoted as $'...').
# RUN: mkdir "$(printf '%t/nl\n#error x')" && cp %s "$(printf '%t/nl\n#error x/k.py')"
# RUN: tile-cc "$(printf '%t/nl\n#error x/k.py')" --kernel k --const B=16 --arg x=f32:1 --arg embedded=f32:1 --arg stream=f32:0 --arg stream_=f32:0 --arg true=i32:0 --arg NULL=i32:0 --arg grid=f32:0 --emit=launcher --ptx-only -o %t/nl.h
# RUN: FileCheck %s --check-prefix=PATH < %t/nl.h
# RUN: c++ -std=c++17 -fsyntax-only -I %tile_src -I %t %t/nl.cpp
#
# Refused: a keyword or std as a namespace, a reserved parameter name, a header name that an
# #include line cannot hold.
# RUN: not tile-cc %s --kernel k --const B=16 --arg x=f32:1 --arg embedded=f32:1 --arg stream=f32:0 --arg stream_=f32:0 --arg true=i32:0 --arg NULL=i32:0 --arg grid=f32:0 --emit=launcher --ptx-only --launcher-namespace class -o %t/e.h 2>&1 | FileCheck %s --check-prefix=CLASS
# RUN: not tile-cc %s --kernel k --const B=16 --arg x=f32:1 --arg embedded=f32:1 --arg stream=f32:0 --arg stream_=f32:0 --arg true=i32:0 --arg NULL=i32:0 --arg grid=f32:0 --emit=launcher --ptx-only --launcher-namespace std::x -o %t/e.h 2>&1 | FileCheck %s --check-prefix=STD
# RUN: not tile-cc %s --kernel reserved --arg x=f32:1 --arg __y=f32:1 --emit=launcher --ptx-only -o %t/e.h 2>&1 | FileCheck %s --check-prefix=RESERVED
# RUN: not tile-cc %s --kernel reserved --arg x=f32:1 --arg __y=f32:1 --emit=launcher --ptx-only -o '%t/q"uote.h' 2>&1 | FileCheck %s --check-prefix=QUOTE
# RUN: test ! -e %t/e.h && test ! -e %t/e.cpp
import cuda.tile as ct


@ct.kernel
def k(x, embedded, stream, stream_, true, NULL, grid, B: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, (i,), (B,))
    ct.store(x, (i,), t * stream + stream_ + grid)


@ct.kernel
def reserved(x, __y):
    ct.store(x, (0,), ct.load(x, (0,), (16,)))

# NAMES: namespace app::tile {
# NAMES: void launch_k(const ::tile::rt::Stream &stream, const ::tile::rt::Grid &grid, const ::tile::rt::Arg &x, const ::tile::rt::Arg &embedded_, float stream__, float stream_, ::std::int32_t true_, ::std::int32_t NULL_, float grid_);
# PATH: //   tile-cc $'{{.*}}/nl\x0a#error x/k.py' --kernel k
# PATH-NOT: {{^}}#error
# CLASS: tile-cc: error: --launcher-namespace 'class': 'class' is a C++ keyword or a standard macro
# STD: tile-cc: error: --launcher-namespace 'std::x': a program may not add to namespace std
# RESERVED: tile-cc: error: parameter '__y' is a name C++ reserves to the implementation (a double underscore, or '_' and a capital first); rename it to generate a launcher
# QUOTE: tile-cc: error: -o '{{.*}}q"uote.h': the header's name cannot appear in an #include "..." line (a quote, backslash or control character)
