/// One thing `gatehouse doctor` checked: what it found and, when something is wrong, how to fix it.
public struct DoctorFinding: Sendable, Equatable {
    /// How bad a finding is; any ``problem`` makes `gatehouse doctor` exit 1.
    public enum Severity: String, Sendable {
        /// The check passed.
        case ok
        /// Works, but worth a look (a weak setting, something that could not be checked).
        case warning
        /// Gatehouse will not work as configured.
        case problem
    }

    /// A stable id tests and scripts can match (`cognito.client.secret`, `embedded.keys`, …).
    public var id: String
    /// How bad it is.
    public var severity: Severity
    /// One line saying what was found, for a person; never contains a secret value.
    public var summary: String
    /// What to do about it (empty when all is well).
    public var fix: String

    init(_ id: String, _ severity: Severity, _ summary: String, fix: String = "") {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.fix = fix
    }

    /// A passed check.
    /// - Parameters:
    ///   - id: The check's stable id.
    ///   - summary: What was found to be right.
    /// - Returns: An `ok` finding with no fix.
    public static func ok(_ id: String, _ summary: String) -> DoctorFinding { .init(id, .ok, summary) }

    /// Something that works but deserves attention.
    /// - Parameters:
    ///   - id: The check's stable id.
    ///   - summary: What was found.
    ///   - fix: What to change, for a person.
    /// - Returns: A `warning` finding.
    public static func warning(_ id: String, _ summary: String, fix: String) -> DoctorFinding { .init(id, .warning, summary, fix: fix) }

    /// Something that stops Gatehouse working as configured.
    /// - Parameters:
    ///   - id: The check's stable id.
    ///   - summary: What is wrong.
    ///   - fix: What to change, for a person.
    /// - Returns: A `problem` finding.
    public static func problem(_ id: String, _ summary: String, fix: String) -> DoctorFinding { .init(id, .problem, summary, fix: fix) }
}

/// Everything the doctor found, printable for a person.
public struct DoctorReport: Sendable {
    /// The heading printed above the findings (which provider and configuration were checked).
    public var title: String
    /// The findings in the order the checks ran.
    public var findings: [DoctorFinding]

    /// A report.
    /// - Parameters:
    ///   - title: The heading.
    ///   - findings: The findings, in check order.
    public init(title: String, findings: [DoctorFinding]) {
        self.title = title
        self.findings = findings
    }

    /// The findings of severity `problem`; the report fails when there is any.
    public var problems: [DoctorFinding] { findings.filter { $0.severity == .problem } }
    var warnings: [DoctorFinding] { findings.filter { $0.severity == .warning } }
    /// 1 when anything is wrong, else 0.
    public var exitStatus: Int32 { problems.isEmpty ? 0 : 1 }

    /// The finding of a check.
    /// - Parameter id: The check's stable id.
    /// - Returns: Its finding, or `nil` if that check did not run.
    public func finding(_ id: String) -> DoctorFinding? { findings.first { $0.id == id } }

    /// The report as printed by `gatehouse doctor`: the title, one line per finding (with its fix
    /// indented below), and a closing count of problems and warnings.
    public var rendered: String {
        var lines = [title, ""]
        for finding in findings {
            let mark =
                switch finding.severity {
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
                : "\(problems.count) problem(s), \(warnings.count) warning(s)."
        )
        return lines.joined(separator: "\n")
    }
}
