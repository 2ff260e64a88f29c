import Foundation
import GatehouseCore
import Logging

/// One line per log event on standard error, as `text` (`time level label: message key=value …`) or
/// `json` (one object per line). Metadata values are written as given: callers never put secrets in
/// them (a test proves it).
public struct GatehouseLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    let label: String
    let json: Bool
    private static let output = Mutex(())

    public init(label: String, level: Logger.Level, json: Bool) {
        self.label = label
        self.logLevel = level
        self.json = json
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let time = Date().formatted(.iso8601)
        let line: String
        if json {
            var object: [String: GatehouseCore.JSONValue] = [
                "time": .string(time), "level": .string(event.level.rawValue), "logger": .string(label), "message": .string(event.message.description),
            ]
            for (key, value) in merged { object[key] = .string(value.description) }
            line = GatehouseCore.JSONValue.object(object).serializedString()
        } else {
            let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value.description))" }.joined(separator: " ")
            line = "\(time) \(event.level.rawValue) \(label): \(event.message)\(fields.isEmpty ? "" : " " + fields)"
        }
        Self.output.withLock { _ in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }

    static func quote(_ value: String) -> String {
        value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) ? "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\"" : value
    }
}
