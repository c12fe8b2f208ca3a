import Foundation

/// Where a recorder streams its log while the app runs: a `replay listen` on this machine
/// (a Unix-domain socket) or on another (TCP), docs/live.md.
///
/// The recorder connects out to the viewer, starts each connection with a header holding the
/// current state, then streams the same checksummed lines it writes to the file. It never waits
/// on the network: lines are queued, up to ``queueCapacity`` bytes, and sent from a thread of
/// its own; when the queue overflows, lines are dropped and the viewer is told exactly which
/// actions it is missing (the file, when there is one, still has everything). When the viewer
/// goes away, the recorder reconnects with backoff.
public struct LiveViewer: Sendable, Equatable {
  /// Where the viewer listens.
  public enum Address: Sendable, Equatable {
    /// A Unix-domain socket at this path: a viewer on the same machine (a simulator's app and
    /// `replay listen --socket PATH` on the Mac).
    case unixSocket(path: String)
    /// TCP to `host` and `port`: a viewer on another machine, or on this one through a tunnel.
    /// Lines travel in clear (docs/live.md, Security).
    case tcp(host: String, port: Int)
  }

  /// Where the viewer listens.
  public var address: Address
  /// The token `replay listen` printed (or that both sides were given in the `REWIND_LIVE_TOKEN`
  /// environment variable); `nil` reads `REWIND_LIVE_TOKEN` when connecting.
  public var token: String?
  /// The most bytes of lines held for the viewer (default 8 MiB): the lines since the last
  /// state sent plus those not sent yet. Past it, lines are dropped and the viewer is told
  /// which actions.
  public var queueCapacity: Int
  /// How long to wait for the viewer's answer to the greeting before giving up on this attempt.
  public var connectTimeout: Duration
  /// Whether the viewer may dispatch actions into the app (`dispatch` in `replay listen`; off by
  /// default). Only actions of the app's `Action` type are taken, decoded by the log's coder and
  /// dispatched through the store's normal path on the main queue (a ``Store`` recording with
  /// this viewer does it; another store calls ``Recorder/onViewerAction(on:_:)``), so they are
  /// recorded like any other, marked `"via":"viewer"`. Whoever can reach the app's connection can
  /// then change its state: turn it on in debug builds only (docs/live.md, Sending actions).
  public var acceptsActions: Bool

  /// A viewer at `address`.
  public init(
    address: Address, token: String? = nil, queueCapacity: Int = 8 << 20,
    connectTimeout: Duration = .seconds(2), acceptsActions: Bool = false
  ) {
    self.address = address
    self.token = token
    self.queueCapacity = max(64 << 10, queueCapacity)
    self.connectTimeout = connectTimeout
    self.acceptsActions = acceptsActions
  }

  /// A viewer on this machine listening on the Unix-domain socket at `path`
  /// (`replay listen --socket PATH`).
  public static func unixSocket(_ path: String, token: String? = nil) -> LiveViewer {
    LiveViewer(address: .unixSocket(path: path), token: token)
  }

  /// A viewer listening on TCP `host`:`port` (`replay listen --port N`, on loopback by default).
  public static func tcp(host: String = "127.0.0.1", port: Int, token: String? = nil) -> LiveViewer
  {
    LiveViewer(address: .tcp(host: host, port: port), token: token)
  }

  /// The viewer the environment names, for an app started by a script or a scheme that sets
  /// it: `REWIND_LIVE=unix:/tmp/rewind.sock` or `REWIND_LIVE=tcp:127.0.0.1:9091` (and the token
  /// in `REWIND_LIVE_TOKEN`); `nil` when `REWIND_LIVE` is unset or not one of those forms.
  public static func fromEnvironment() -> LiveViewer? {
    guard let value = ProcessInfo.processInfo.environment["REWIND_LIVE"] else { return nil }
    return parse(value)
  }

  /// `unix:PATH`, `tcp:HOST:PORT` or `tcp:[IPV6]:PORT`; `nil` for anything else.
  package static func parse(_ text: String) -> LiveViewer? {
    if text.hasPrefix("unix:") {
      let path = String(text.dropFirst(5))
      return path.isEmpty ? nil : .unixSocket(path)
    }
    guard text.hasPrefix("tcp:") else { return nil }
    let rest = text.dropFirst(4)
    guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
      (1...65_535).contains(port)
    else { return nil }
    var host = String(rest[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    return host.isEmpty ? nil : .tcp(host: host, port: port)
  }

  /// The address as the socket layer takes it.
  var socketAddress: SocketAddress {
    switch address {
    case .unixSocket(let path): return .unix(path: path)
    case .tcp(let host, let port): return .tcp(host: host, port: port)
    }
  }

  /// The token to present: ``token``, else `REWIND_LIVE_TOKEN`, else none.
  var effectiveToken: String {
    token ?? ProcessInfo.processInfo.environment["REWIND_LIVE_TOKEN"] ?? ""
  }
}
