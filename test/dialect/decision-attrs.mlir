// Code generation's decisions are typed attributes of the tile dialect: they print and parse
// round trip, and the dialect refuses one of the wrong type (a string, as IR written before the
// attributes were typed had), on the wrong op, or with an unknown value, naming it. The module's
// target is a #tile.target, spelled with or without quotes.
// RUN: tile-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: tile.kernel @decided
// CHECK: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.operand_a = #tile.operand<registers>}
// CHECK: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<mma.sync>, tile.operand_a = #tile.operand<shared>}
// CHECK: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<fma>}
tile.kernel @decided() {
  %a = arith.constant dense<1.0> : tensor<64x16xbf16>
  %b = arith.constant dense<1.0> : tensor<16x64xbf16>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  %0 = tile.mma %a, %b, %acc {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.operand_a = #tile.operand<registers>} : tensor<64x16xbf16>, tensor<16x64xbf16>, tensor<64x64xf32>
  %1 = tile.mma %a, %b, %0 {tile.mma_instruction = #tile.mma_instruction<mma.sync>, tile.operand_a = #tile.operand<shared>} : tensor<64x16xbf16>, tensor<16x64xbf16>, tensor<64x64xf32>
  %2 = tile.mma %a, %b, %1 {tile.mma_instruction = #tile.mma_instruction<fma>} : tensor<64x16xbf16>, tensor<16x64xbf16>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @as_string() {
  %a = arith.constant dense<1.0> : tensor<64x16xbf16>
  %b = arith.constant dense<1.0> : tensor<16x64xbf16>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma_instruction' must be #tile.mma_instruction<wgmma|mma.sync|fma>, got "wgmma"}}
  %0 = tile.mma %a, %b, %acc {tile.mma_instruction = "wgmma"} : tensor<64x16xbf16>, tensor<16x64xbf16>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @operand_as_string() {
  %a = arith.constant dense<1.0> : tensor<64x16xbf16>
  %b = arith.constant dense<1.0> : tensor<16x64xbf16>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.operand_a' must be #tile.operand<registers|shared>, got "registers"}}
  %0 = tile.mma %a, %b, %acc {tile.operand_a = "registers"} : tensor<64x16xbf16>, tensor<16x64xbf16>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @misplaced() {
  // expected-error @+1 {{'tile.mma_instruction' belongs on tile.mma}}
  %a = arith.constant {tile.mma_instruction = #tile.mma_instruction<wgmma>} dense<1.0> : tensor<64x16xbf16>
  tile.return
}

// -----

tile.kernel @unknown() {
  %a = arith.constant dense<1.0> : tensor<64x16xbf16>
  %b = arith.constant dense<1.0> : tensor<16x64xbf16>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+2 {{expected ::mlir::tile::MmaInstruction to be one of: wgmma, mma.sync, fma}}
  // expected-error @+1 {{failed to parse Tile_MmaInstructionAttr parameter 'value'}}
  %0 = tile.mma %a, %b, %acc {tile.mma_instruction = #tile.mma_instruction<tensor_cores>} : tensor<64x16xbf16>, tensor<16x64xbf16>, tensor<64x64xf32>
  tile.return
}

// -----

// CHECK: module attributes {tile.target = #tile.target<sm_90a>}
module attributes {tile.target = #tile.target<sm_90a>} {
}

// -----

// CHECK: module attributes {tile.target = #tile.target<sm_80>}
module attributes {tile.target = #tile.target<"sm_80">} {
}

// -----

// expected-error @+1 {{'tile.target' must be #tile.target<sm_XX[a]>, got "sm_90a"}}
module attributes {tile.target = "sm_90a"} {
}

// -----

// expected-error @+1 {{'sm_9x' is not an architecture like sm_90a or sm_80}}
module attributes {tile.target = #tile.target<sm_9x>} {
}

// -----

module {
  // expected-error @+1 {{'tile.target' belongs on the module}}
  tile.kernel @targeted() attributes {tile.target = #tile.target<sm_90a>} {
    tile.return
  }
}
