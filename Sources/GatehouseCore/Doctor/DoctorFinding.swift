/// One thing `gatehouse doctor` checked: what it found and, when something is wrong, how to fix it.
public struct DoctorFinding: Sendable, Equatable {
    public enum Severity: String, Sendable {
        case ok, warning, problem
    }

    /// A stable id tests and scripts can match (`cognito.client.secret`, `embedded.keys`, …).
    public var id: String
    public var severity: Severity
    public var summary: String
    /// What to do about it (empty when all is well).
    public var fix: String

    public init(_ id: String, _ severity: Severity, _ summary: String, fix: String = "") {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.fix = fix
    }

    public static func ok(_ id: String, _ summary: String) -> DoctorFinding { .init(id, .ok, summary) }
    public static func warning(_ id: String, _ summary: String, fix: String) -> DoctorFinding { .init(id, .warning, summary, fix: fix) }
    public static func problem(_ id: String, _ summary: String, fix: String) -> DoctorFinding { .init(id, .problem, summary, fix: fix) }
}

/// Everything the doctor found, printable for a person.
public struct DoctorReport: Sendable {
    public var title: String
    public var findings: [DoctorFinding]

    public init(title: String, findings: [DoctorFinding]) {
        self.title = title
        self.findings = findings
    }

    public var problems: [DoctorFinding] { findings.filter { $0.severity == .problem } }
    public var warnings: [DoctorFinding] { findings.filter { $0.severity == .warning } }
    /// 1 when anything is wrong, else 0.
    public var exitStatus: Int32 { problems.isEmpty ? 0 : 1 }

    public func finding(_ id: String) -> DoctorFinding? { findings.first { $0.id == id } }

    public var rendered: String {
        var lines = [title, ""]
        for finding in findings {
            let mark = switch finding.severity {
            case .ok: "ok     "
            case .warning: "WARN   "
            case .problem: "PROBLEM"
            }
            lines.append("\(mark) \(finding.summary)")
            if !finding.fix.isEmpty { lines.append("        fix: \(finding.fix)") }
        }
        lines.append("")
        lines.append(
            problems.isEmpty
                ? (warnings.isEmpty ? "All checks passed." : "No problems; \(warnings.count) warning(s) worth a look.")
                : "\(problems.count) problem(s), \(warnings.count) warning(s).")
        return lines.joined(separator: "\n")
    }
}
