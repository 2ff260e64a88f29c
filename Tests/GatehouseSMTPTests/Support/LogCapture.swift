import Logging
import Synchronization

/// Collects every log line (message and metadata) at trace level, for secrecy checks.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var logger: Logger {
        var logger = Logger(label: "smtp-test") { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.lines.withLock { $0.append("\(event.level) \(event.message) \(all)") }
        }
    }
}
