// A run longer than a second prints "N of M blocks done" on stderr (at most once a second, and
// a last line when it ends); a short one prints nothing. Each block loops 1000 times, so
// 15000 blocks take a few seconds.
// RUN: tile-run %s --grid 15000 2>&1 >/dev/null | FileCheck %s --check-prefix=LONG
// RUN: tile-run %s --grid 10 2>&1 | FileCheck %s --check-prefix=SHORT --allow-empty
// LONG: tile-run: {{[0-9]+}} of 15000 blocks done
// LONG: tile-run: 15000 of 15000 blocks done
// SHORT-NOT: blocks done
tile.kernel @k() {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %n = arith.constant 1000 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = arith.addi %i, %c1 : i32
  }
  tile.return
}
