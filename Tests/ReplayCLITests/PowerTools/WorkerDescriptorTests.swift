#if os(Linux)
  import Foundation
  import RewindReplayService
  import Testing

  /// A worker process dropped leaves none of its pipes open in `replay`: `triage` starts a worker
  /// after every crash, and a folder of 10,000 logs with 1,000 crashes once left 2,000 pipe ends
  /// open until Foundation's `Process.run()` crashed on them.
  @Suite struct WorkerDescriptorTests {
    /// What each of this process's open descriptors refers to (`pipe:[INODE]` for a pipe), from
    /// `/proc/self/fd`. A pipe's inode number is not reused while the system runs.
    static func openTargets() -> Set<String> {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
      return Set(
        names.compactMap {
          try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
        })
    }

    @Test func aDroppedWorkerClosesItsPipes() throws {
      try PowerTools.useReplayBinaryAsWorker()
      for round in 0..<4 {
        var worker: WorkerProcess? = try WorkerProcess(
          arguments: [TriageWorkerMode.command], reportsFrames: false)
        let pipes = try #require(worker?.pipeDescriptors).map {
          try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
        }
        #expect(pipes.allSatisfy { $0.hasPrefix("pipe:[") }, "\(pipes)")
        // Without its arguments the worker says how to run it and exits; either way it goes.
        if round % 2 == 0 { _ = worker?.receive(progress: nil) }
        worker = nil
        let open = Self.openTargets()
        #expect(pipes.allSatisfy { !open.contains($0) }, "round \(round): \(pipes) still open")
      }
    }
  }
#endif
