# Writes OUT, a C source defining NAME (the bytes of IN) and NAME_len: the fixed runtime.ts
# embedded in the emitter.
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" n)
math(EXPR n "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n" bytes "${bytes}")
file(WRITE ${OUT} "/* Generated from ${NAME}'s source by embed.cmake. */\n#include <stddef.h>\n"
  "extern const unsigned char ${NAME}[];\nextern const size_t ${NAME}_len;\n"
  "const unsigned char ${NAME}[] = {\n${bytes}0};\nconst size_t ${NAME}_len = ${n};\n")
