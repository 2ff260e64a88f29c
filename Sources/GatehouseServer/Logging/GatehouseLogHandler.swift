import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// One line per log event on standard error, as `text` (`time level label: message key=value …`) or
/// `json` (one object per line). Metadata values are written as given: callers never put secrets in
/// them (a test proves it).
///
/// Every event is exactly one line whatever its message or metadata hold: the handler escapes
/// control characters itself (``LogLineEscaping``), so a value an attacker chose (a header, a token's
/// field, an address) can neither start a forged line nor, in the text format, pose as a
/// `key=value` field.
public struct GatehouseLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    let label: String
    let json: Bool
    private static let output = LockedBox(())

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
        // Hummingbird's request id, under the name operators search for.
        if let requestID = merged.removeValue(forKey: "hb.request.id") { merged["request_id"] = requestID }
        let line = Self.render(
            time: Date().formatted(.iso8601),
            level: event.level,
            label: label,
            message: event.message.description,
            metadata: merged,
            json: json
        )
        Self.output.withLock { _ in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }

    /// One event as one line, without the trailing newline: the format written to standard error.
    /// The result never contains a line break or any other control character.
    static func render(time: String, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata, json: Bool) -> String {
        if json {
            var object: [String: GatehouseInfrastructure.JSONValue] = [:]
            for (key, value) in metadata { object[key] = .string(value.description) }
            // The event's own fields win over metadata of the same name.
            object["time"] = .string(time)
            object["level"] = .string(level.rawValue)
            object["logger"] = .string(label)
            object["message"] = .string(message)
            // The serializer escapes C0 controls; the rest (DEL, C1, U+2028/2029, bidi controls) here.
            return LogLineEscaping.escapeJSONOutput(GatehouseInfrastructure.JSONValue.object(object).serializedString())
        }
        let fields = metadata.sorted { $0.key < $1.key }
            .map { "\(LogLineEscaping.key($0.key))=\(quote($0.value.description))" }
            .joined(separator: " ")
        return "\(time) \(level.rawValue) \(LogLineEscaping.key(label)): \(LogLineEscaping.message(message))\(fields.isEmpty ? "" : " " + fields)"
    }

    /// A metadata value for the text format: escaped, and quoted when it holds a space, `"` or `=`.
    static func quote(_ value: String) -> String {
        let escaped = LogLineEscaping.escape(value)
        return escaped.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) ? "\"" + escaped + "\"" : escaped
    }
}
