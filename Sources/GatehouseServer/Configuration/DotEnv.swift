import Foundation

/// Reads a `.env` file: `KEY=VALUE` lines, `#` comments, an optional `export ` prefix, and values in
/// single or double quotes. Variables already in the process environment win over the file.
///
/// Kept instead of swift-configuration's `EnvironmentVariablesProvider(environmentFilePath:)` (1.4.0;
/// it is compiled and linked already, through Hummingbird's default `ConfigurationSupport` trait, so
/// it would add no build time): its parser splits each line at the first `=` and trims, nothing more,
/// so a quoted value keeps its quotes (`GOOGLE_CLIENT_ID="a,b"` would match no client id),
/// `export KEY=…` defines a variable named `export KEY`, and a trailing ` # comment` stays in the
/// value: three things the configuration guide and `dotEnvFilesParse` promise, and the seeds' `.env`
/// files use (checked 2026-11-27 on `dotEnvFilesParse`'s sample: `GATEHOUSE_HTTP_PORT` unset,
/// `'My App' # trailing` as the app name). Its precedence (environment over file) matched; a wrong
/// type's error names the variable but not the accepted range. Start-up: 1.0 ms for the provider over
/// the file and the environment and 100 look-ups, against 0.07 ms here (release, once per start).
public enum DotEnv {
    public static func parse(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            var line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if let first = value.first, first == "\"" || first == "'",
                let closing = value.dropFirst().firstIndex(of: first)
            {
                value = String(value[value.index(after: value.startIndex)..<closing])
            } else if let hash = value.range(of: " #") {
                value = value[..<hash.lowerBound].trimmingCharacters(in: .whitespaces)
            }
            if !key.isEmpty { values[key] = value }
        }
        return values
    }

    /// The process environment over the `.env` file at `path` (if it exists).
    public static func environment(
        merging path: String = ".env",
        processEnvironment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return processEnvironment }
        return parse(text).merging(processEnvironment) { _, process in process }
    }
}
