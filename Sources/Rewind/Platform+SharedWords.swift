import Foundation  // and through it the C library (Glibc, Musl or Darwin)
import RewindCPU

/// A few machine words that two processes read and write without a system call: a small file that
/// both map (`mmap(MAP_SHARED)`), created by the parent, opened by path in the child it starts.
/// `replay` uses them for how far its crash-isolation worker has rebuilt states ahead of the
/// position asked for (docs/replay.md, "Crash-safe replay"), so that a step into that stretch
/// needs no round trip.
///
/// The file is removed once the child has mapped it (``removeFile()``); the mapping lives on.
///
/// Why `@unchecked Sendable` is sound: the pointer is immutable and every access to the word
/// is atomic (acquire loads, release stores).
package final class SharedWords: @unchecked Sendable {
  /// The file both processes map, until ``removeFile()``.
  package let path: String
  /// How many words there are.
  package let count: Int
  private let words: UnsafeMutablePointer<Int>
  private var isRemoved = false

  private init(path: String, words: UnsafeMutablePointer<Int>, count: Int) {
    self.path = path
    self.words = words
    self.count = count
  }

  /// `count` new words, each holding `initialValue`, in a new file in the temporary directory,
  /// or the reason when the file cannot be made or mapped.
  package static func create(count: Int, initialValue: Int) -> Result<SharedWords, LogFileFailure> {
    var template = Array((NSTemporaryDirectory() + "/rewind-shared-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard fd >= 0 else { return .failure(LogFileFailure(errno: errno)) }
    let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { _ = LibC.close(fd) }
    guard ftruncate(fd, off_t(count * MemoryLayout<Int>.size)) == 0 else {
      let code = errno
      Platform.removeFile(path)
      return .failure(LogFileFailure(errno: code))
    }
    switch map(fd, count: count) {
    case .success(let words):
      let shared = SharedWords(path: path, words: words, count: count)
      for index in 0..<count { shared.store(initialValue, at: index) }
      return .success(shared)
    case .failure(let failure):
      Platform.removeFile(path)
      return .failure(failure)
    }
  }

  /// The `count` words the parent created at `path`, or the reason they cannot be mapped.
  package static func open(path: String, count: Int) -> Result<SharedWords, LogFileFailure> {
    let fd = Foundation.open(path, O_RDWR | O_CLOEXEC)
    guard fd >= 0 else { return .failure(LogFileFailure(errno: errno)) }
    defer { _ = LibC.close(fd) }
    guard let size = Platform.fileSize(fd), size >= count * MemoryLayout<Int>.size else {
      return .failure(LogFileFailure(errno: EINVAL))
    }
    return map(fd, count: count).map { SharedWords(path: path, words: $0, count: count) }
  }

  private static func map(
    _ fd: Int32, count: Int
  ) -> Result<UnsafeMutablePointer<Int>, LogFileFailure> {
    let size = count * MemoryLayout<Int>.size
    guard let pointer = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
      pointer != MAP_FAILED
    else { return .failure(LogFileFailure(errno: errno)) }
    return .success(pointer.bindMemory(to: Int.self, capacity: count))
  }

  deinit {
    _ = munmap(UnsafeMutableRawPointer(words), count * MemoryLayout<Int>.size)
  }

  /// The value of word `index` (an acquire load: what the other process wrote before storing it
  /// is seen). An index out of range reads as -1.
  package func load(at index: Int) -> Int {
    guard index >= 0, index < count else { return -1 }
    return rewind_atomic_load(words + index)
  }

  /// Sets word `index` (a release store); an index out of range is ignored.
  package func store(_ value: Int, at index: Int) {
    guard index >= 0, index < count else { return }
    rewind_atomic_store(words + index, value)
  }

  /// Removes the file (once both processes have mapped it; the mapping stays). Idempotent.
  package func removeFile() {
    guard !isRemoved else { return }
    isRemoved = true
    Platform.removeFile(path)
  }
}
