import Gatehouse
import SwiftUI

/// The account's passkeys (name, created, last used; a blocked one says so), "Add a passkey" with an optional
/// name, and swipe to remove.
struct PasskeysSection: View {
    @Environment(AuthModel.self) private var auth
    @Binding var name: String

    var body: some View {
        Section("Passkeys") {
            ForEach(auth.passkeys) { passkey in
                VStack(alignment: .leading, spacing: 2) {
                    Text(passkey.name)
                    Text(verbatim: Self.dates(of: passkey))
                        .font(.footnote)
                        .foregroundStyle(.secondary)
                    if passkey.flagged {
                        Text("Blocked: its counter went backwards — remove it").font(.footnote).foregroundStyle(.red)
                    }
                }
                .swipeActions {
                    Button("Remove", role: .destructive) { Task { await auth.removePasskey(passkey) } }
                }
            }
            TextField("Name (optional)", text: $name)
            Button("Add a passkey") {
                let chosen = name.isEmpty ? nil : name
                Task {
                    if await auth.addPasskey({ try await AppConfiguration.passkeys(auth.client).register(name: chosen) }) != nil {
                        name = ""
                    }
                }
            }
            .disabled(auth.isLoading)
        }
    }

    /// "Added 23 Nov 2026, last used 2 hours ago".
    static func dates(of passkey: Passkey) -> String {
        let added = "Added \(passkey.createdAt.formatted(date: .abbreviated, time: .omitted))"
        guard let used = passkey.lastUsedAt else { return added }
        return added + ", last used \(used.formatted(.relative(presentation: .named)))"
    }
}
