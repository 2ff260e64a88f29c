import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging
import Mustache

/// The Mustache templates of every message: per ``MailRequest/Kind``, `<kind>.subject.mustache`,
/// `<kind>.text.mustache` and `<kind>.html.mustache`. The built-in ones are embedded in the binary
/// (Sources/GatehouseCore/Resources/Mail); a directory (`GATEHOUSE_MAIL_TEMPLATES`) may replace any of them.
///
/// HTML templates escape values (Mustache's default); subject and text templates do not (they are
/// rendered as `TEXT` content), so a name like `O'Brien & Co` reads as written.
struct MailTemplateSet: Sendable {
    /// The three templates of a message.
    enum Part: String, Sendable, CaseIterable {
        case subject, text, html
    }

    /// The rendered parts of one message.
    struct Rendered: Sendable, Equatable {
        var subject: String
        var text: String
        var html: String
    }

    private let templates: [String: MustacheTemplate]

    /// The built-in templates; they are tested to parse, so failing here is a build mistake.
    static let builtIn: MailTemplateSet = {
        do {
            return try MailTemplateSet(directory: nil)
        } catch {
            fatalError("the built-in mail templates do not parse: \(error)")
        }
    }()

    /// The file name of one template.
    static func fileName(_ kind: MailRequest.Kind, _ part: Part) -> String { "\(kind.rawValue).\(part.rawValue).mustache" }

    /// Loads the built-in templates and, when `directory` is given, replaces those it has a file for.
    /// - Parameter directory: `GATEHOUSE_MAIL_TEMPLATES`, or `nil` for the built-in templates only.
    /// - Throws: ``DeliverySettingsError`` naming `GATEHOUSE_MAIL_TEMPLATES` when the directory cannot be
    ///   read, holds a `.mustache` file with another name, or a template does not parse.
    init(directory: String?) throws {
        var sources: [String: (text: String, origin: String)] = [:]
        for kind in MailRequest.Kind.allCases {
            for part in Part.allCases {
                let name = Self.fileName(kind, part)
                sources[name] = (String(decoding: Self.embedded(kind, part), as: UTF8.self), "built-in \(name)")
            }
        }
        if let directory, !directory.isEmpty {
            for (name, text) in try Self.overrides(in: directory, known: Set(sources.keys)) {
                sources[name] = (text, "\(directory)/\(name)")
            }
        }
        var templates: [String: MustacheTemplate] = [:]
        for (name, source) in sources {
            // Subject and text are plain text: no HTML escaping. The pragma shares the first line, so line numbers stay right.
            let text = name.hasSuffix(".html.mustache") ? source.text : "{{% CONTENT_TYPE: TEXT}}" + source.text
            do {
                templates[name] = try MustacheTemplate(string: text)
            } catch let error as MustacheTemplate.ParserError {
                throw DeliverySettingsError(
                    variable: "GATEHOUSE_MAIL_TEMPLATES",
                    "\(source.origin) does not parse (line \(error.context.lineNumber), column \(error.context.columnNumber)): \(error.error)"
                )
            } catch {
                throw DeliverySettingsError(variable: "GATEHOUSE_MAIL_TEMPLATES", "\(source.origin) does not parse: \(error)")
            }
        }
        self.templates = templates
    }

    /// The `.mustache` files of `directory`, by name.
    static func overrides(in directory: String, known: Set<String>) throws -> [String: String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw DeliverySettingsError(variable: "GATEHOUSE_MAIL_TEMPLATES", "cannot read the directory \(directory)")
        }
        var files: [String: String] = [:]
        for name in names.sorted() where name.hasSuffix(".mustache") {
            guard known.contains(name) else {
                throw DeliverySettingsError(
                    variable: "GATEHOUSE_MAIL_TEMPLATES",
                    "unknown template \(name) in \(directory): names are <kind>.<subject|text|html>.mustache, kinds "
                        + MailRequest.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                )
            }
            let path = (directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw DeliverySettingsError(variable: "GATEHOUSE_MAIL_TEMPLATES", "cannot read \(path) as UTF-8 text")
            }
            files[name] = text
        }
        return files
    }

    /// Renders the three parts of one message.
    /// - Parameters:
    ///   - kind: Which message.
    ///   - context: The values (`app_name`, `name`, `code`, `lifetime`, `confirmed`, `reset`, `address`, `reply_to`).
    /// - Returns: Subject (trimmed; the header writer makes it one line), text and HTML.
    func render(_ kind: MailRequest.Kind, context: [String: Any]) -> Rendered {
        func part(_ part: Part) -> String { templates[Self.fileName(kind, part)]?.render(context) ?? "" }
        return Rendered(
            subject: part(.subject).trimmingCharacters(in: .whitespacesAndNewlines),
            text: part(.text),
            html: part(.html)
        )
    }

    /// The values the templates see.
    /// - Parameters:
    ///   - request: The message request.
    ///   - appName: The product name.
    ///   - replyTo: The reply-to address, if any.
    /// - Returns: `app_name`, `code`, `lifetime`, `confirmed`, `reset`, and `name` / `reply_to` / `address` only
    ///   when they are set (so `{{#name}}…{{/name}}` tests for a name).
    static func context(for request: MailRequest, appName: String, replyTo: String?) -> [String: Any] {
        var context: [String: Any] = [
            "app_name": appName,
            "code": request.code ?? "",
            "lifetime": lifetime(TimeInterval(request.lifetime ?? 0)),
            "confirmed": request.confirmed ?? false,
            "reset": request.reset ?? false,
        ]
        if let name = request.name?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty { context["name"] = name }
        if let replyTo { context["reply_to"] = replyTo }
        if let address = request.address, !address.isEmpty { context["address"] = address }
        return context
    }

    /// A code lifetime in words: "15 minutes", "1 hour", "24 hours", "3 days".
    /// - Parameter seconds: The lifetime.
    /// - Returns: The words.
    static func lifetime(_ seconds: TimeInterval) -> String {
        let minutes = Int((seconds / 60).rounded())
        if minutes > 0, minutes % (60 * 24) == 0 {
            let days = minutes / (60 * 24)
            return days == 1 ? "24 hours" : "\(days) days"
        }
        if minutes > 0, minutes % 60 == 0 {
            let hours = minutes / 60
            return hours == 1 ? "1 hour" : "\(hours) hours"
        }
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }

    /// The embedded text of a built-in template.
    static func embedded(_ kind: MailRequest.Kind, _ part: Part) -> [UInt8] {
        switch (kind, part) {
        case (.confirmSignUp, .subject): PackageResources.confirm_signup_subject_mustache
        case (.confirmSignUp, .text): PackageResources.confirm_signup_text_mustache
        case (.confirmSignUp, .html): PackageResources.confirm_signup_html_mustache
        case (.resetPassword, .subject): PackageResources.reset_password_subject_mustache
        case (.resetPassword, .text): PackageResources.reset_password_text_mustache
        case (.resetPassword, .html): PackageResources.reset_password_html_mustache
        case (.alreadyRegistered, .subject): PackageResources.already_registered_subject_mustache
        case (.alreadyRegistered, .text): PackageResources.already_registered_text_mustache
        case (.alreadyRegistered, .html): PackageResources.already_registered_html_mustache
        case (.passwordChanged, .subject): PackageResources.password_changed_subject_mustache
        case (.passwordChanged, .text): PackageResources.password_changed_text_mustache
        case (.passwordChanged, .html): PackageResources.password_changed_html_mustache
        case (.confirmEmailChange, .subject): PackageResources.confirm_email_change_subject_mustache
        case (.confirmEmailChange, .text): PackageResources.confirm_email_change_text_mustache
        case (.confirmEmailChange, .html): PackageResources.confirm_email_change_html_mustache
        case (.emailChanged, .subject): PackageResources.email_changed_subject_mustache
        case (.emailChanged, .text): PackageResources.email_changed_text_mustache
        case (.emailChanged, .html): PackageResources.email_changed_html_mustache
        case (.emailInUse, .subject): PackageResources.email_in_use_subject_mustache
        case (.emailInUse, .text): PackageResources.email_in_use_text_mustache
        case (.emailInUse, .html): PackageResources.email_in_use_html_mustache
        case (.test, .subject): PackageResources.test_subject_mustache
        case (.test, .text): PackageResources.test_text_mustache
        case (.test, .html): PackageResources.test_html_mustache
        }
    }
}
