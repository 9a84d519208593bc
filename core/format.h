// `strata fmt`: the canonical text of a program (core/printer.h) with every
// comment of its source kept.
//
// A comment on a line of its own stays before the form it preceded, on its
// own line at that form's indentation; a comment after code stays at the end
// of the line where the form it followed ends (several such comments whose
// forms now end on one line: the first there, the others on lines of their
// own after it). The canonical form has the
// same lists as the source (it changes spelling and layout: literals, line
// breaks, indentation), which is what lets each comment find its form again.
// The result is checked before it is returned: it must parse to the same
// program and hold every comment, in order; otherwise formatting refuses
// (Error(ErrorKind::Input)) and the caller keeps the file as it is.
#pragma once

#include <string>
#include <string_view>

namespace strata {

// The canonical text of the program `text` (read from `file_name`) with its
// comments; throws the parser's errors for a bad program, and
// Error(ErrorKind::Input) when a comment cannot be placed.
std::string format_program(std::string_view text, const std::string& file_name);

// The comments of `source` placed into `canonical`, a text with the same
// lists (format_program's second step; exposed for tests). Throws
// Error(ErrorKind::Input) when the two texts' lists differ.
std::string place_comments(std::string_view source, std::string_view canonical,
                           const std::string& file_name);

} // namespace strata
