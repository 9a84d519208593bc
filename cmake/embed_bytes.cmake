# cmake -DINPUT=FILE -DOUTPUT=FILE.cpp -DSYMBOL=NAME -P embed_bytes.cmake
# Writes a C++ file defining `const unsigned char NAME[]` and `NAME_size`
# with FILE's bytes (the jit's warm-up object: jit/CMakeLists.txt).
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" digits)
math(EXPR size "${digits} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUTPUT}.tmp"
     "// Generated from ${INPUT} by cmake/embed_bytes.cmake: do not edit.\n"
     "#include <cstddef>\n"
     "extern const unsigned char ${SYMBOL}[] = {${bytes}};\n"
     "extern const std::size_t ${SYMBOL}_size = ${size};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
