import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// A log handler that renders every event (message and metadata) into a shared buffer, for tests
/// that search the output for secrets.
public final class LogCapture: Sendable {
    private let lines = LockedBox<[String]>([])

    public init() {}

    public func logger(label: String = "gatehouse-test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { label in Handler(label: label, capture: self) }
        logger.logLevel = level
        return logger
    }

    public var text: String { lines.withLock { $0.joined(separator: "\n") } }
    public var allLines: [String] { lines.withLock { $0 } }

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    struct Handler: LogHandler {
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        let label: String
        let capture: LogCapture

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var merged = metadata
            if let extra = event.metadata { merged.merge(extra) { _, new in new } }
            // As the server's handler writes it: Hummingbird's request id under the name operators search for.
            if let requestID = merged.removeValue(forKey: "hb.request.id") { merged["request_id"] = requestID }
            let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.append("\(event.level) \(label): \(event.message) \(fields)")
        }
    }
}
