# tile_embed_file(<target> <file> <symbol>): compiles the bytes of <file> (a build output or a
# source) into <target> as
#   extern const unsigned char <symbol>[];   // followed by a 0 byte, so text is a C string
#   extern const std::size_t <symbol>_size;  // without that 0
# so that a test binary carries its data (cubins, PTX) wherever it is copied.
# Run as a script (cmake -DINPUT=... -DOUTPUT=... -DSYMBOL=... -P TileEmbed.cmake) it writes
# the source file.
if(CMAKE_SCRIPT_MODE_FILE AND MODE STREQUAL "binary")
  # The file's hash is in the assembly text: ccache (which cannot see what .incbin reads) then
  # misses whenever the bytes change.
  file(SHA256 "${INPUT}" sha)
  file(WRITE "${OUTPUT}.tmp"
"// Generated from ${INPUT} by cmake/TileEmbed.cmake (tile_embed_binary).
__asm__(\".section .rodata.${SYMBOL},\\\"a\\\"\\n\"
        \"# sha256 ${sha}\\n\"
        \".global ${SYMBOL}\\n.hidden ${SYMBOL}\\n.balign 16\\n${SYMBOL}:\\n\"
        \".incbin \\\"${INPUT}\\\"\\n\"
        \".global ${SYMBOL}_end\\n.hidden ${SYMBOL}_end\\n${SYMBOL}_end:\\n.byte 0\\n\"
        \".previous\\n\");
")
  file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
  file(REMOVE "${OUTPUT}.tmp")
  return()
endif()
if(CMAKE_SCRIPT_MODE_FILE)
  file(READ "${INPUT}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  file(WRITE "${OUTPUT}"
    "// Generated from ${INPUT} by cmake/TileEmbed.cmake.\n#include <cstddef>\n"
    "extern const unsigned char ${SYMBOL}[] = {${bytes}0};\n"
    "extern const std::size_t ${SYMBOL}_size = sizeof(${SYMBOL}) - 1;\n")
  return()
endif()

set(TILE_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_FILE}")

function(tile_embed_file target input symbol)
  set(output "${CMAKE_CURRENT_BINARY_DIR}/embed/${symbol}.cpp")
  add_custom_command(OUTPUT "${output}"
    COMMAND "${CMAKE_COMMAND}" -DINPUT=${input} -DOUTPUT=${output} -DSYMBOL=${symbol}
            -P "${TILE_EMBED_SCRIPT}"
    DEPENDS "${input}" "${TILE_EMBED_SCRIPT}"
    COMMENT "Embedding ${symbol}")
  target_sources(${target} PRIVATE "${output}")
endfunction()

# tile_embed_binary(<target> <file> <symbol>): links the bytes of <file> (a build output of any
# size) into <target> as
#   extern "C" const unsigned char <symbol>[], <symbol>_end[];   // [begin, end)
# through the assembler's .incbin, so large files cost nothing to convert.
function(tile_embed_binary target input symbol)
  set(output "${CMAKE_CURRENT_BINARY_DIR}/embed/${symbol}.cpp")
  add_custom_command(OUTPUT "${output}"
    COMMAND "${CMAKE_COMMAND}" -DMODE=binary -DINPUT=${input} -DOUTPUT=${output} -DSYMBOL=${symbol}
            -P "${TILE_EMBED_SCRIPT}"
    DEPENDS "${input}" "${TILE_EMBED_SCRIPT}"
    COMMENT "Embedding ${symbol}")
  set_source_files_properties("${output}" PROPERTIES OBJECT_DEPENDS "${input}")
  target_sources(${target} PRIVATE "${output}")
endfunction()
