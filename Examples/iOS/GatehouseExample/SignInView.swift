import AuthenticationServices
import Gatehouse
import GoogleSignIn
import SwiftUI

/// Email and password, a passkey, Sign in with Apple and Sign in with Google. Decisions live in AuthModel.
struct SignInView: View {
    @Environment(AuthModel.self) private var auth
    @State private var email = ""
    @State private var password = ""
    @State private var appleNonce = Nonce()
    @State private var showSignUp = false
    @State private var showReset = false

    var body: some View {
        Form {
            Section {
                TextField("Email", text: $email)
                    .textContentType(.username)
                    .keyboardType(.emailAddress)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
                SecureField("Password", text: $password)
                    .textContentType(.password)
                Button("Sign in") { Task { await auth.signIn(email: email, password: password) } }
                    .disabled(email.isEmpty || password.isEmpty || auth.isLoading)
            }
            if let message = auth.errorMessage {
                Section { Text(message).foregroundStyle(.red) }
            }
            Section {
                // The system sheet offers the passkeys saved for the server's RP id (no address needed); a passkey
                // never asks for an authenticator app's code.
                Button("Sign in with a passkey") {
                    Task { await auth.signInWithPasskey { try await AppConfiguration.passkeys(auth.client).signIn() } }
                }
                .disabled(auth.isLoading)
            }
            Section {
                SignInWithAppleButton(.signIn) { request in
                    appleNonce = Nonce()
                    request.requestedScopes = [.fullName, .email]
                    request.nonce = appleNonce.hashed
                } onCompletion: { result in
                    handleApple(result)
                }
                .frame(height: 44)
                Button("Sign in with Google") { Task { await signInWithGoogle() } }
            }
            Section {
                // The server's hosted UI (GATEHOUSE_HOSTED_UI) in ASWebAuthenticationSession, as Amplify's
                // signInWithWebUI: the hosted page, or Google or Apple by redirect.
                Button("Sign in with the web page") { Task { await signInWithWebUI(.hostedPage) } }
                Button("Sign in with Google in the browser") { Task { await signInWithWebUI(.google) } }
            }
            Section {
                Button("Create an account") { showSignUp = true }
                Button("Forgot password?") { showReset = true }
            }
        }
        .navigationTitle("Sign in")
        .sheet(isPresented: $showSignUp) { SignUpView() }
        .sheet(isPresented: $showReset) { ResetPasswordView() }
    }

    private func handleApple(_ result: Result<ASAuthorization, Error>) {
        let authorization: ASAuthorization
        switch result {
        case .success(let value): authorization = value
        case .failure(let error as ASAuthorizationError) where error.code == .canceled: return  // the user closed the sheet
        case .failure(let error): return auth.report(error)
        }
        guard let credential = authorization.credential as? ASAuthorizationAppleIDCredential,
            let token = credential.identityToken.flatMap({ String(data: $0, encoding: .utf8) })
        else { return auth.report(AppleWebSignInError.invalidCallback) }
        // Kept for the credential-state check at launch (GatehouseClient.checkAppleCredential).
        UserDefaults.standard.set(credential.user, forKey: "appleUserID")
        let code = credential.authorizationCode.flatMap { String(data: $0, encoding: .utf8) }
        let name = credential.fullName.flatMap { PersonNameComponentsFormatter().string(from: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        let nonce = appleNonce
        Task { await auth.signInWithApple(identityToken: token, authorizationCode: code, nonce: nonce, email: credential.email, fullName: name) }
    }

    @MainActor
    private func signInWithWebUI(_ provider: WebUIRequest.Provider) async {
        let web = WebUISignIn(client: auth.client, clientID: AppConfiguration.clientID, redirectURI: AppConfiguration.callbackURL)
        await auth.signInWithWebUI { try await web.signIn(provider: provider) }
    }

    @MainActor
    private func signInWithGoogle() async {
        guard let presenter = UIApplication.shared.connectedScenes.compactMap({ ($0 as? UIWindowScene)?.keyWindow?.rootViewController }).first else {
            return
        }
        let nonce = Nonce()
        do {
            let result = try await GIDSignIn.sharedInstance.signIn(withPresenting: presenter, hint: nil, additionalScopes: nil, nonce: nonce.hashed)
            guard let idToken = result.user.idToken?.tokenString else { return }
            await auth.signInWithGoogle(idToken: idToken, nonce: nonce, fullName: result.user.profile?.name)
        } catch let error as GIDSignInError where error.code == .canceled {
            // The user closed Google's sheet.
        } catch {
            auth.report(error)
        }
    }
}
