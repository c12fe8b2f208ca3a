import Foundation  // and through it the C library (Glibc, Musl or Darwin)
import Rewind
import RewindCPU

/// Memory that two processes read and write without a system call: a small file that both map
/// (`mmap(MAP_SHARED)`), created by the parent, opened by path in the child it starts. It holds
/// a few machine words, read and written atomically, then a region of bytes whose hand-over the
/// words order. `replay` uses it to talk to its crash-isolation worker (docs/replay.md,
/// "Crash-safe replay"): how far the worker has rebuilt states ahead, and requests that reach a
/// worker already awake without a system call.
///
/// The file is removed once the child has mapped it (``removeFile()``); the mapping lives on.
///
/// Why `@unchecked Sendable` is sound: the pointers are immutable, every access to a word is
/// atomic (acquire loads, release stores, ``fence()``), and the bytes are written by one side
/// before a release store of a word that the other side loads (acquire) before reading them.
package final class SharedMemory: @unchecked Sendable {
  /// The file both processes map, until ``removeFile()``.
  package let path: String
  /// How many words there are.
  package let wordCount: Int
  /// The region of bytes after the words.
  package let bytes: UnsafeMutableRawBufferPointer
  private let words: UnsafeMutablePointer<Int>
  private var isRemoved = false

  private init(path: String, base: UnsafeMutableRawPointer, wordCount: Int, byteCount: Int) {
    self.path = path
    self.wordCount = wordCount
    words = base.bindMemory(to: Int.self, capacity: wordCount)
    bytes = UnsafeMutableRawBufferPointer(
      start: base + wordCount * MemoryLayout<Int>.size, count: byteCount)
  }

  private static func size(wordCount: Int, byteCount: Int) -> Int {
    wordCount * MemoryLayout<Int>.size + byteCount
  }

  /// `wordCount` words, each holding `initialValue`, and `byteCount` bytes, in a new file in the
  /// temporary directory, or the reason when the file cannot be made or mapped.
  package static func create(
    wordCount: Int, byteCount: Int = 0, initialValue: Int
  ) -> Result<SharedMemory, LogFileFailure> {
    var template = Array((NSTemporaryDirectory() + "/rewind-shared-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard fd >= 0 else { return .failure(LogFileFailure(errno: errno)) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { _ = LibC.close(fd) }
    let size = size(wordCount: wordCount, byteCount: byteCount)
    guard ftruncate(fd, off_t(size)) == 0 else {
      let code = errno
      Platform.removeFile(path)
      return .failure(LogFileFailure(errno: code))
    }
    switch map(fd, size: size) {
    case .success(let base):
      let shared = SharedMemory(
        path: path, base: base, wordCount: wordCount, byteCount: byteCount)
      for index in 0..<wordCount { shared.store(initialValue, at: index) }
      return .success(shared)
    case .failure(let failure):
      Platform.removeFile(path)
      return .failure(failure)
    }
  }

  /// The memory the parent created at `path` with the same counts, or the reason it cannot be
  /// mapped.
  package static func open(
    path: String, wordCount: Int, byteCount: Int = 0
  ) -> Result<SharedMemory, LogFileFailure> {
    let fd = Foundation.open(path, O_RDWR | O_CLOEXEC)
    guard fd >= 0 else { return .failure(LogFileFailure(errno: errno)) }
    defer { _ = LibC.close(fd) }
    let size = size(wordCount: wordCount, byteCount: byteCount)
    guard let fileSize = Platform.fileSize(fd), fileSize >= size else {
      return .failure(LogFileFailure(errno: EINVAL))
    }
    return map(fd, size: size).map {
      SharedMemory(path: path, base: $0, wordCount: wordCount, byteCount: byteCount)
    }
  }

  private static func map(_ fd: Int32, size: Int) -> Result<UnsafeMutableRawPointer, LogFileFailure>
  {
    guard let pointer = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
      pointer != MAP_FAILED
    else { return .failure(LogFileFailure(errno: errno)) }
    return .success(pointer)
  }

  deinit {
    _ = munmap(
      UnsafeMutableRawPointer(words), Self.size(wordCount: wordCount, byteCount: bytes.count))
  }

  /// The value of word `index` (an acquire load: what the other process wrote before storing it
  /// is seen). An index out of range reads as -1.
  package func load(at index: Int) -> Int {
    guard index >= 0, index < wordCount else { return -1 }
    return rewind_atomic_load(words + index)
  }

  /// Sets word `index` (a release store); an index out of range is ignored.
  package func store(_ value: Int, at index: Int) {
    guard index >= 0, index < wordCount else { return }
    rewind_atomic_store(words + index, value)
  }

  /// A full fence (``rewind_atomic_fence``): a store before it is visible to the other process
  /// before a load after it is made.
  package func fence() {
    rewind_atomic_fence()
  }

  /// Removes the file (once both processes have mapped it; the mapping stays). Idempotent.
  package func removeFile() {
    guard !isRemoved else { return }
    isRemoved = true
    Platform.removeFile(path)
  }
}
