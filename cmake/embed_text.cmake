# Writes OUT: `inline constexpr const char* NAME` holding the text of IN as a raw string, so a
# data file of the repository (the advisor's rules) is part of the build without a file system.
file(READ ${IN} text)
file(WRITE ${OUT} "// Generated from ${IN} by cmake/embed_text.cmake. Do not edit.\n#pragma once\n\nnamespace strata::embedded {\ninline constexpr const char* ${NAME} = R\"strata_embedded(${text})strata_embedded\";\n}  // namespace strata::embedded\n")
