// File checks and all-or-nothing output for the command-line tools (POSIX, no MLIR/LLVM).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tile::tools {

/// Why `path` cannot be read as a `noun` (e.g. "kernel source file", ".npy input"), or "" when
/// it can: it does not exist ("cannot open 'x': No such file or directory"), is a directory
/// ("'x' is a directory, not a kernel source file"), is not a regular file (a device, FIFO or
/// socket, which may never end), or is larger than maxBytes.
std::string checkInputFile(const std::string &path, const std::string &noun, std::uint64_t maxBytes);

/// True when `a` and `b` both exist and are the same file (symlinks followed, hard links
/// included: device and inode compared).
bool sameFile(const std::string &a, const std::string &b);

/// A file a tool reads or writes, and how its messages name it ("-o", "the input file",
/// "the --tuning-table file").
struct NamedPath {
  std::string path;
  std::string what;
};

/// True when writing `output` would replace the file `input` names: the same file (device and
/// inode, through links), or, when either does not exist yet, the same absolute path once '.',
/// '..' and symbolic links of the folders are resolved. An existing output that is not a
/// regular file (/dev/null) never clashes.
bool samePath(const std::string &output, const std::string &input);

/// The check every tool makes before it writes: why some output would overwrite an input or
/// another output ("-o 't.h' is the --tuning-table file; refusing to overwrite it"; "--metadata
/// 'a' and -o 'a' are the same file"), or "" when none does.
std::string checkOutputs(const std::vector<NamedPath> &outputs, const std::vector<NamedPath> &inputs);

/// Creates `dir` and missing parents (like mkdir -p). On failure sets `error` to the real
/// cause ("cannot create directory 'out': Permission denied"; "'out' exists and is not a
/// directory") and returns false.
bool makeDirectories(const std::string &dir, std::string &error);

/// Checks that a file can be created in `dir` (by creating and removing one), so a tool can
/// refuse an unwritable output folder before a long run.
bool checkWritableDirectory(const std::string &dir, std::string &error);

/// Writes each (path, contents) to a temporary file in the path's folder, flushes and closes
/// them checking every error, then renames them all into place: on a failure while writing
/// (disk full, file size limit, permissions) no destination is touched and the temporary
/// files are removed. (A failing rename after an earlier one succeeded, which needs the
/// folder to change under us, is reported; the files renamed so far stay.)
bool writeFilesAtomically(const std::vector<std::pair<std::string, std::string>> &files, std::string &error);

} // namespace tile::tools
