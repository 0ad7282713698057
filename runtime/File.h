// Reading a whole input file safely: the runtime's readers (kernel metadata, .npy, the JIT's
// disk cache) take files that a user, another process or a disk error may have made anything.
#pragma once

#include <cstdint>
#include <string>

namespace tile::rt {

/// Why a file could not be read (readRegularFileInto); `error` holds errno where one applies.
struct ReadFailure {
  enum class Kind { None, CannotOpen, Directory, NotRegular, TooLarge, ReadError, Shrank, Grew, OutOfMemory };
  Kind kind = Kind::None;
  int error = 0;
  std::uint64_t size = 0; // the file's size (TooLarge, OutOfMemory)
};

/// The one reader every file of the project goes through (kernel sources, .mlir, metadata,
/// .npy, cache entries, tuning tables, TILE_SSD_SOURCE): the bytes of the regular file `path`
/// into `data`, or what went wrong, without throwing, so that each caller words its message.
/// A FIFO is opened without waiting for a writer and refused, as are directories and devices
/// (/dev/zero); a file over `maxBytes`, or one that changes size while read, is refused too.
ReadFailure readRegularFileInto(const std::string &path, std::uint64_t maxBytes, std::string &data);

/// The bytes of the regular file `path` (symbolic links followed). Throws Error(Kind::Io) whose
/// message starts with `path`: missing or unreadable file (the system's reason), a directory or
/// other non-regular file, a file larger than `maxBytes`, a read error or a file that changes
/// size while read. Never allocates more than the file's size.
std::string readRegularFile(const std::string &path, std::uint64_t maxBytes);

/// Standard input read to its end, refused (Error(Kind::Io) naming `name`) as soon as it passes
/// `maxBytes`: a pipe or device that never ends (/dev/zero) is an error, not unbounded memory.
std::string readStandardInput(const std::string &name, std::uint64_t maxBytes);

/// Writes `bytes` to a new temporary file in `path`'s folder, flushed to disk (fsync), with the
/// usual mode of a new file, and returns its name: renaming it over `path` then replaces the
/// file atomically (and replaces a symbolic link rather than writing through it). On failure
/// returns "" with the system's reason in `error` (and `*created` false when the temporary
/// file could not even be created), and leaves no temporary file behind.
std::string writeTempFileNextTo(const std::string &path, const std::string &bytes, std::string &error,
                                bool *created = nullptr);

/// "1.5 GiB", "12 KiB", "37 bytes": sizes in messages.
std::string formatBytes(std::uint64_t bytes);

} // namespace tile::rt
