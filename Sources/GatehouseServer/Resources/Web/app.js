// Gatehouse's sign-in page: plain JavaScript against the HTTP contract, no build step, no libraries.
//
// Where tokens live: the access and ID tokens only in memory; the refresh token in sessionStorage,
// so a reload keeps the user signed in while closing the tab signs them out, and nothing lands in
// localStorage (long-lived, shared by every tab) or in a URL. A strict CSP (no inline script, no
// third-party script unless Google or Apple is configured) keeps other code from reading them.
'use strict';

(function () {
  const config = readConfig();
  // WebAuthn's JSON forms and base64url (webauthn-json.js, loaded before this file).
  const { toBase64url, requestOptions, creationOptions, credentialJSON } = window.GatehouseWebAuthn;
  const REFRESH_KEY = 'gatehouse.refresh_token';
  let session = null; // { access, id, refresh, expiresAt }
  let pendingEmail = null;
  let pendingPassword = null; // kept in memory between sign-up and confirmation, to sign in after
  let pendingPhone = null; // the number a sign-in code was texted to
  let addingPhone = null; // the number a code was texted to from the profile, to add to the account
  let addingPassword = null; // the current password that code was asked for with, if the server wanted it
  let hasPassword = false; // whether the signed-in account has a password (its profile's identities)
  let pendingMfa = null; // the challenge (mfa_token) of a sign-in that asked for the second factor
  // Passkeys show where the server verifies them and the browser has WebAuthn.
  const PASSKEYS = config.passkeys === true && !!window.PublicKeyCredential && !!navigator.credentials;
  let autofillReady = false; // the browser offers passkeys in the email field's autofill (conditional mediation)
  let autofill = null; // { controller, settled, timer } while such a request waits for the user to pick a passkey

  // ---------- configuration and small helpers ----------

  function readConfig() {
    const meta = document.querySelector('meta[name="gatehouse-config"]');
    try { return meta ? JSON.parse(meta.getAttribute('content')) : {}; } catch (e) { return {}; }
  }

  const $ = (id) => document.getElementById(id);

  const MESSAGES = {
    invalid_credentials: 'Incorrect email or password.',
    user_not_confirmed: 'Confirm your email address first. Enter the code we sent you.',
    code_mismatch: 'That code is not right. Check the email and try again.',
    mfa_required: 'Enter the code from your authenticator app to finish signing in.',
    code_expired: 'That code has expired. Ask for a new one.',
    invalid_grant: 'Your session has ended. Please sign in again.',
    unauthorized: 'Your session has ended. Please sign in again.',
    invalid_token: 'The sign-in could not be verified. Please try again.',
    provider_disabled: 'This sign-in method is not available.',
    conflict: null, // the server's message says what to do
    invalid_password: null,
    invalid_request: null,
    upstream_unavailable: 'The sign-in service is busy. Try again in a moment.',
    unavailable: 'The service is temporarily unavailable. Try again in a moment.',
  };

  // A wait in words: "42 seconds", "3 minutes", "2 hours".
  function duration(seconds) {
    if (seconds < 120) return seconds === 1 ? '1 second' : `${seconds} seconds`;
    const minutes = Math.ceil(seconds / 60);
    return minutes < 120 ? `${minutes} minutes` : `${Math.ceil(minutes / 60)} hours`;
  }

  function messageFor(error) {
    if (error.code === 'too_many_requests') {
      return error.retryAfter ? `Too many attempts. Try again in ${duration(error.retryAfter)}.` : 'Too many attempts. Try again later.';
    }
    if (error.code === 'network') return 'Cannot reach the server. Check your connection and try again.';
    const known = MESSAGES[error.code];
    return known || error.message || 'Something went wrong. Please try again.';
  }

  // A code asked for again inside the server's cool-down gets a 429 whose Retry-After says how long to wait.
  function sendMessageFor(error, otherwise) {
    if (error.code !== 'too_many_requests') return (otherwise || messageFor)(error);
    return error.retryAfter ? `Wait ${duration(error.retryAfter)} before asking for another code.` : 'Wait a few minutes before asking for another code.';
  }

  class ApiError extends Error {
    constructor(code, message, status, retryAfter, mfaToken) {
      super(message);
      this.code = code;
      this.status = status;
      this.retryAfter = retryAfter;
      this.mfaToken = mfaToken; // with mfa_required: the challenge for POST /auth/mfa/verify
    }
  }

  async function api(method, path, body, bearer) {
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (bearer) headers.Authorization = 'Bearer ' + bearer;
    let response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit', cache: 'no-store' });
    } catch (e) {
      throw new ApiError('network', 'Cannot reach the server.', 0);
    }
    if (response.status === 204) return null;
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const err = (data && data.error) || {};
      const retry = parseInt(response.headers.get('Retry-After') || '', 10);
      throw new ApiError(err.code || 'http_' + response.status, err.message || response.statusText, response.status,
        Number.isFinite(retry) ? retry : undefined, typeof err.mfa_token === 'string' ? err.mfa_token : undefined);
    }
    return data;
  }

  // ---------- session ----------

  function keep(tokens) {
    session = {
      access: tokens.access_token, id: tokens.id_token, refresh: tokens.refresh_token,
      expiresAt: Date.now() + (tokens.expires_in || 3600) * 1000,
    };
    try { sessionStorage.setItem(REFRESH_KEY, session.refresh); } catch (e) { /* private mode: memory only */ }
  }

  function forget() {
    session = null;
    hasPassword = false;
    pendingMfa = null;
    resetAddPhone();
    resetPasskeys();
    resetMfa();
    resetEmailChange();
    resetDevices();
    try { sessionStorage.removeItem(REFRESH_KEY); } catch (e) { /* ignore */ }
  }

  let refreshing = null;
  function refresh() {
    // One refresh at a time; concurrent callers share it.
    if (!refreshing) {
      const token = session ? session.refresh : sessionStorage.getItem(REFRESH_KEY);
      refreshing = (async () => {
        if (!token) throw new ApiError('invalid_grant', 'Not signed in.', 401);
        try {
          keep(await api('POST', '/auth/refresh', { refresh_token: token }));
        } catch (e) {
          if (e.code === 'invalid_grant') forget();
          throw e;
        }
      })().finally(() => { refreshing = null; });
    }
    return refreshing;
  }

  // Calls a protected endpoint, refreshing ahead of expiry and once after a 401.
  async function authed(method, path, body) {
    if (!session || session.expiresAt - Date.now() < 60000) await refresh();
    try {
      return await api(method, path, body, session.access);
    } catch (e) {
      if (e.code !== 'unauthorized') throw e; // a wrong current password is a 401 too, but not a token problem
      await refresh();
      return api(method, path, body, session.access);
    }
  }

  // ---------- screens ----------

  const SCREENS = ['signin', 'signup', 'confirm', 'forgot', 'reset', 'profile', 'mfa'];

  function show(name, options) {
    if (!SCREENS.includes(name)) name = 'signin';
    if (name === 'profile' && !session) name = 'signin';
    if (name === 'confirm' && !pendingEmail) name = 'signup';
    if (name === 'reset' && !pendingEmail) name = 'forgot';
    if (name === 'mfa' && !pendingMfa) name = 'signin';
    if (name !== 'mfa') pendingMfa = null; // leaving the second step abandons that sign-in
    for (const screen of SCREENS) $('screen-' + screen).hidden = screen !== name;
    if (name === 'signin') armAutofill(); else stopAutofill();
    document.title = ({ signin: 'Sign in', signup: 'Create account', confirm: 'Confirm your email', forgot: 'Reset password', reset: 'New password', profile: 'Your account', mfa: 'Enter your code' })[name] + ' · ' + appName();
    if (location.hash !== '#/' + name) history.replaceState(null, '', '#/' + name);
    for (const button of document.querySelectorAll('button.reveal[aria-pressed="true"]')) reveal(button, false);
    if (options && options.focus) {
      $(options.focus).focus();
    } else if (!(options && options.keepFocus)) {
      const heading = document.querySelector('#screen-' + name + ' h1');
      if (heading) heading.focus();
    }
    if (name === 'profile') loadProfile();
  }

  function appName() { return config.app_name || 'Gatehouse'; }

  function notice(id, text) {
    const el = $(id);
    el.textContent = text || '';
    el.hidden = !text;
  }

  // ---------- errors on forms ----------
  //
  // A refused form (by the checks here or by the server) shows its message in its role=alert element,
  // marks the fields it is about aria-invalid and described by that message, and moves the focus to
  // the first of them, or to the message when it is about no field. Editing a field, or sending the
  // form again, clears its mark.

  const errorOf = (form) => form.querySelector('.error');

  function describedBy(input, id, linked) {
    const ids = (input.getAttribute('aria-describedby') || '').split(/\s+/).filter((x) => x && x !== id);
    if (linked) ids.push(id);
    if (ids.length) input.setAttribute('aria-describedby', ids.join(' '));
    else input.removeAttribute('aria-describedby');
  }

  function clearInvalid(form, input) {
    input.removeAttribute('aria-invalid');
    describedBy(input, errorOf(form).id, false);
  }

  function formError(form, text) {
    const el = errorOf(form);
    for (const input of form.querySelectorAll('[aria-invalid]')) clearInvalid(form, input);
    el.textContent = text || '';
    el.hidden = !text;
  }

  function refuse(form, text, inputs) {
    formError(form, text);
    for (const input of inputs) {
      input.setAttribute('aria-invalid', 'true');
      describedBy(input, errorOf(form).id, true);
    }
    (inputs[0] || errorOf(form)).focus();
    return false;
  }

  function invalid(form, input, text) {
    return refuse(form, text, [input]);
  }

  // Which fields a server refusal is about, by its code (the form's own list first); the first is focused.
  const FIELDS = {
    invalid_credentials: ['password', 'current_password'],
    code_mismatch: ['code'],
    code_expired: ['code'],
    invalid_password: ['password', 'new_password'],
  };

  function fieldsFor(form, code, own) {
    const names = (own && own[code]) || FIELDS[code] || [];
    return names.map((name) => form.elements[name]).filter((input) => input && input.getClientRects().length > 0);
  }

  // A session the server no longer honours sends the user to sign in, saying so; true if that was the error.
  function endedSession(e) {
    if (!(e instanceof ApiError) || (e.code !== 'invalid_grant' && e.code !== 'unauthorized')) return false;
    forget();
    notice('signin-notice', messageFor(e));
    show('signin');
    return true;
  }

  // Runs a form's action with its buttons disabled and its errors shown next to it: in the words of
  // `opts.describe` (messageFor by default), on the fields `opts.fields` names for the error's code.
  async function attempt(form, action, opts) {
    formError(form, '');
    const buttons = form.querySelectorAll('button');
    buttons.forEach((b) => { b.disabled = true; });
    form.setAttribute('aria-busy', 'true');
    try {
      await action(form, form.elements);
    } catch (e) {
      if (!(e instanceof ApiError)) {
        refuse(form, 'Something went wrong. Please try again.', []);
      } else if (!endedSession(e)) {
        refuse(form, (opts.describe || messageFor)(e), fieldsFor(form, e.code, opts.fields));
      }
    } finally {
      buttons.forEach((b) => { b.disabled = false; });
      form.removeAttribute('aria-busy');
    }
  }

  // A form sent (by its submit button or Enter) runs its action through attempt().
  function onSubmit(formId, action, options) {
    const form = $(formId);
    form.addEventListener('input', (event) => {
      if (event.target.getAttribute('aria-invalid') === 'true') clearInvalid(form, event.target);
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      attempt(form, action, options || {});
    });
  }

  const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

  function checkEmail(form, input) {
    const value = input.value.trim();
    if (!value) return invalid(form, input, 'Enter your email address.');
    if (!EMAIL.test(value)) return invalid(form, input, 'Enter a valid email address, like name@example.com.');
    return true;
  }

  // The server's password rule (its configuration), shown in the hints and checked before sending.
  const POLICY = Object.assign(
    { min_length: 8, require_digit: true, require_lowercase: false, require_uppercase: false, require_symbol: false },
    config.password_policy || {});

  function policySummary() {
    if (POLICY.summary) return POLICY.summary;
    const parts = [POLICY.require_digit && 'a digit', POLICY.require_lowercase && 'a lowercase letter',
      POLICY.require_uppercase && 'an uppercase letter', POLICY.require_symbol && 'a symbol'].filter(Boolean);
    return `At least ${POLICY.min_length} characters` + (parts.length ? ', with ' + parts.join(', ') : '') + '.';
  }

  // The same tests as the server's (lengths in Unicode code points; a symbol is neither a letter nor a digit).
  function checkPassword(form, input) {
    const value = input.value;
    const rules = [
      [Array.from(value).length >= POLICY.min_length, `Use at least ${POLICY.min_length} characters.`],
      [!POLICY.require_digit || /[0-9]/.test(value), 'Include at least one digit.'],
      [!POLICY.require_lowercase || /\p{Lowercase}/u.test(value), 'Include a lowercase letter.'],
      [!POLICY.require_uppercase || /\p{Uppercase}/u.test(value), 'Include an uppercase letter.'],
      [!POLICY.require_symbol || /[^\p{Alphabetic}0-9]/u.test(value), 'Include a symbol, such as ! or #.'],
    ];
    const broken = rules.find((rule) => !rule[0]);
    return broken ? invalid(form, input, broken[1]) : true;
  }

  function showPolicy() {
    for (const hint of document.querySelectorAll('.password-rule')) hint.textContent = policySummary();
    const rules = [`minlength: ${POLICY.min_length}`, POLICY.require_digit && 'required: digit', POLICY.require_lowercase && 'required: lower',
      POLICY.require_uppercase && 'required: upper', POLICY.require_symbol && 'required: special'].filter(Boolean);
    for (const input of document.querySelectorAll('input[autocomplete="new-password"]')) {
      input.minLength = POLICY.min_length;
      input.setAttribute('passwordrules', rules.join('; ') + ';');
    }
  }

  // ---------- show-password buttons ----------

  function reveal(button, shown) {
    button.setAttribute('aria-pressed', String(shown));
    $(button.getAttribute('aria-controls')).type = shown ? 'text' : 'password';
  }

  // Each password field gets a toggle button after it: its name stays "Show password", aria-pressed says whether it is shown.
  function addRevealButtons() {
    for (const input of document.querySelectorAll('input[type="password"]')) {
      const wrap = document.createElement('span');
      wrap.className = 'password';
      input.parentNode.insertBefore(wrap, input);
      wrap.appendChild(input);
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'reveal';
      button.textContent = 'Show';
      button.setAttribute('aria-label', 'Show password');
      button.setAttribute('aria-controls', input.id);
      button.setAttribute('aria-pressed', 'false');
      button.addEventListener('click', () => reveal(button, button.getAttribute('aria-pressed') !== 'true'));
      wrap.appendChild(button);
    }
  }

  // ---------- the second factor at sign-in ----------
  //
  // Any first factor the page sends (a password, a text-message code, Google, Apple) may answer 403
  // mfa_required with a challenge when the account has an authenticator app: the page then asks for
  // the app's code (or a recovery code) and completes the sign-in with POST /auth/mfa/verify.

  // A first factor's answer: true once its tokens are kept; false when the second step is shown instead.
  async function signedIn(answer) {
    try {
      keep(await answer);
      return true;
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 'mfa_required' || !e.mfaToken) throw e;
      secondStep(e.mfaToken);
      return false;
    }
  }

  function secondStep(token) {
    pendingMfa = token;
    const form = $('form-mfa');
    form.elements.code.value = '';
    formError(form, '');
    notice('signin-notice', '');
    show('mfa', { focus: 'mfa-code' });
  }

  // App codes this page saw accepted, with when: the server refuses a code it accepted before (each
  // works once) in the same words as a wrong one, and the page can say which it was when it knows.
  const acceptedCodes = new Map();
  const CODE_WINDOW_MS = 90 * 1000; // the step of the code and one either side

  function accepted(code) {
    const now = Date.now();
    for (const [old, at] of acceptedCodes) if (now - at > CODE_WINDOW_MS) acceptedCodes.delete(old);
    if (/^[0-9]{6}$/.test(code)) acceptedCodes.set(code, now);
  }

  // The words for a refused authenticator-app (or recovery) code; `e.sent` is the code that was sent.
  function appCodeMessageFor(e) {
    if (e.code !== 'code_mismatch') return messageFor(e);
    const sent = e.sent || '';
    if (!/^[0-9]{6}$/.test(sent)) return 'That recovery code is not right, or it was used already: each one works once.';
    const at = acceptedCodes.get(sent);
    if (at !== undefined && Date.now() - at <= CODE_WINDOW_MS) {
      return 'That code was just used, and each code works once. Wait for your app to show the next one, then enter it.';
    }
    return 'That code is not right, or it was used already. Enter the code your authenticator app shows now.';
  }

  // The code as sent: spaces taken out (apps show "123 456"); a recovery code keeps its dash.
  function appCode(input) {
    return input.value.replace(/\s+/g, '');
  }

  // authed() with a body holding an app code: a refusal carries the code, for appCodeMessageFor.
  async function sendCode(method, path, body) {
    try {
      return await authed(method, path, body);
    } catch (e) {
      if (e instanceof ApiError) e.sent = body.code;
      throw e;
    }
  }

  onSubmit('form-mfa', async (form, f) => {
    const code = appCode(f.code);
    if (!code) return invalid(form, f.code, 'Enter the 6-digit code from your authenticator app, or a recovery code.');
    if (!/^[0-9]{6}$/.test(code) && !/^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(code)) {
      return invalid(form, f.code, 'Enter the 6 digits your app shows, or a recovery code like abcde-23456.');
    }
    try {
      keep(await api('POST', '/auth/mfa/verify', { mfa_token: pendingMfa, code }));
    } catch (e) {
      e.sent = code;
      if (e.code !== 'invalid_grant') throw e;
      // The challenge lives 5 minutes and completes one sign-in: start again.
      f.code.value = '';
      notice('signin-notice', 'This sign-in step expired or was already used. Sign in again.');
      show('signin');
      return;
    }
    accepted(code);
    f.code.value = '';
    notice('signin-notice', '');
    show('profile');
  }, { describe: appCodeMessageFor });

  // ---------- flows ----------

  onSubmit('form-signin', async (form, f) => {
    if (!checkEmail(form, f.email)) return;
    if (!f.password.value) return invalid(form, f.password, 'Enter your password.');
    const email = f.email.value.trim();
    try {
      if (!(await signedIn(api('POST', '/auth/signin', { email, password: f.password.value })))) {
        f.password.value = '';
        return;
      }
    } catch (e) {
      if (e.code === 'user_not_confirmed') {
        pendingEmail = email;
        pendingPassword = f.password.value;
        $('confirm-destination').textContent = email;
        show('confirm');
        formError($('form-confirm'), messageFor(e));
        return;
      }
      throw e;
    }
    f.password.value = '';
    notice('signin-notice', '');
    show('profile');
  }, { fields: { invalid_credentials: ['password', 'email'] } });

  onSubmit('form-signup', async (form, f) => {
    if (!checkEmail(form, f.email)) return;
    if (!checkPassword(form, f.password)) return;
    if (f.password.value !== f.password2.value) return invalid(form, f.password2, 'The passwords do not match.');
    const email = f.email.value.trim();
    const body = { email, password: f.password.value };
    if (f.full_name.value.trim()) body.full_name = f.full_name.value.trim();
    const result = await api('POST', '/auth/signup', body);
    pendingEmail = email;
    pendingPassword = f.password.value;
    f.password.value = '';
    f.password2.value = '';
    $('confirm-destination').textContent = (result && result.code_delivery && result.code_delivery.destination) || email;
    show('confirm');
  });

  onSubmit('form-confirm', async (form, f) => {
    const code = f.code.value.replace(/[\s-]/g, '');
    if (!/^[0-9]{6}$/.test(code)) return invalid(form, f.code, 'Enter the 6-digit code from the email.');
    await api('POST', '/auth/confirm', { email: pendingEmail, code });
    f.code.value = '';
    if (pendingPassword) {
      const done = await signedIn(api('POST', '/auth/signin', { email: pendingEmail, password: pendingPassword }));
      pendingPassword = null;
      if (done) show('profile');
    } else {
      $('signin-email').value = pendingEmail;
      notice('signin-notice', 'Your email is confirmed. Sign in to continue.');
      show('signin');
    }
  });

  $('resend-code').addEventListener('click', async () => {
    const button = $('resend-code');
    button.disabled = true;
    notice('resend-notice', '');
    formError($('form-confirm'), '');
    try {
      const result = await api('POST', '/auth/resend-code', { email: pendingEmail });
      notice('resend-notice', 'A new code is on its way to ' + ((result && result.code_delivery && result.code_delivery.destination) || pendingEmail) + '.');
    } catch (e) {
      formError($('form-confirm'), sendMessageFor(e));
    } finally {
      button.disabled = false;
    }
  });

  onSubmit('form-forgot', async (form, f) => {
    if (!checkEmail(form, f.email)) return;
    pendingEmail = f.email.value.trim();
    const result = await api('POST', '/auth/password/forgot', { email: pendingEmail });
    $('reset-destination').textContent = (result && result.code_delivery && result.code_delivery.destination) || pendingEmail;
    show('reset');
  }, { describe: sendMessageFor, fields: { invalid_request: ['email'] } });

  onSubmit('form-reset', async (form, f) => {
    const code = f.code.value.replace(/[\s-]/g, '');
    if (!/^[0-9]{6}$/.test(code)) return invalid(form, f.code, 'Enter the 6-digit code from the email.');
    if (!checkPassword(form, f.new_password)) return;
    await api('POST', '/auth/password/reset', { email: pendingEmail, code, new_password: f.new_password.value });
    f.code.value = '';
    f.new_password.value = '';
    $('signin-email').value = pendingEmail;
    notice('signin-notice', 'Your password is changed. Sign in with the new one.');
    forget();
    show('signin');
  });

  // ---------- phone ----------

  // International form: `+` (or `00`) and 8 to 15 digits; spaces, dots, dashes and brackets are ignored.
  // The server checks the rest (the country, premium-rate ranges) and says what is wrong.
  function phoneNumber(value) {
    const compact = value.trim().replace(/[\s().-]/g, '').replace(/^00/, '+');
    return /^\+[1-9][0-9]{7,14}$/.test(compact) ? compact : null;
  }

  // The server's words for phone answers; a wrong code speaks of the text message, not an email.
  function phoneMessageFor(error) {
    if (error.code === 'code_mismatch') return 'That code is not right. Check the text message and try again.';
    if (error.code === 'provider_disabled') return error.message || 'Sign-in with a phone number is not available.';
    return messageFor(error);
  }

  function phoneStep(step) {
    $('form-phone').hidden = step !== 'number';
    $('form-phone-code').hidden = step !== 'code';
    notice('phone-resend-notice', '');
    if (step === 'code') $('phone-code').focus();
  }

  function showPhoneCode(result, phone) {
    pendingPhone = phone;
    $('phone-destination').textContent = (result && result.code_delivery && result.code_delivery.destination) || phone;
    phoneStep('code');
  }

  onSubmit('form-phone', async (form, f) => {
    if (!f.phone.value.trim()) return invalid(form, f.phone, 'Enter your phone number.');
    const phone = phoneNumber(f.phone.value);
    if (!phone) return invalid(form, f.phone, 'Enter the number with its country code, like +14155550123.');
    const result = await api('POST', '/auth/phone/send', { phone });
    showPhoneCode(result, phone);
  }, { describe: (e) => sendMessageFor(e, phoneMessageFor), fields: { invalid_request: ['phone'] } });

  onSubmit('form-phone-code', async (form, f) => {
    const code = f.code.value.replace(/[\s-]/g, '');
    if (!/^[0-9]{6}$/.test(code)) return invalid(form, f.code, 'Enter the 6-digit code from the text message.');
    const done = await signedIn(api('POST', '/auth/phone/verify', { phone: pendingPhone, code }));
    f.code.value = '';
    pendingPhone = null;
    phoneStep('number');
    if (!done) return;
    notice('signin-notice', '');
    show('profile');
  }, { describe: phoneMessageFor });

  $('phone-resend').addEventListener('click', async () => {
    const button = $('phone-resend');
    const form = $('form-phone-code');
    button.disabled = true;
    formError(form, '');
    try {
      const result = await api('POST', '/auth/phone/send', { phone: pendingPhone });
      showPhoneCode(result, pendingPhone);
      notice('phone-resend-notice', 'A new code is on its way.');
    } catch (e) {
      formError(form, sendMessageFor(e, phoneMessageFor));
    } finally {
      button.disabled = false;
    }
  });

  $('phone-change').addEventListener('click', () => {
    pendingPhone = null;
    formError($('form-phone-code'), '');
    $('phone-code').value = '';
    phoneStep('number');
    $('phone-number').focus();
  });

  async function loadProfile() {
    const error = $('profile-notice');
    try {
      const me = await authed('GET', '/me');
      $('profile-email').textContent = me.email || '—';
      $('profile-phone').textContent = me.phone ? me.phone + (me.phone_verified ? '' : ' (not verified)') : '—';
      $('profile-name').textContent = me.full_name || '—';
      $('profile-identities').textContent = (me.identities || []).map((i) => ({ password: 'Email and password', google: 'Google', apple: 'Apple', phone: 'Phone' })[i.provider] || i.provider).join(', ') || '—';
      hasPassword = (me.identities || []).some((i) => i.provider === 'password');
      $('phone-add-summary').textContent = me.phone ? 'Change phone number' : 'Add a phone number';
      $('profile-created').textContent = me.created_at ? new Date(me.created_at).toLocaleDateString() : '—';
      $('name-input').value = me.full_name || '';
      if (PASSKEYS) loadPasskeys();
      loadMfa();
      showEmailChange();
      loadDevices();
    } catch (e) {
      if (endedSession(e)) return;
      error.textContent = messageFor(e);
      error.hidden = false;
    }
  }

  onSubmit('form-name', async (form, f) => {
    const name = f.full_name.value.trim();
    await authed('PATCH', '/me', { full_name: name || null });
    notice('profile-notice', 'Name saved.');
    loadProfile();
  });

  onSubmit('form-change', async (form, f) => {
    if (!f.current_password.value) return invalid(form, f.current_password, 'Enter your current password.');
    if (!checkPassword(form, f.new_password)) return;
    await authed('POST', '/auth/password/change', { current_password: f.current_password.value, new_password: f.new_password.value });
    f.current_password.value = '';
    f.new_password.value = '';
    notice('profile-notice', 'Password changed. Your other sessions were signed out.');
  });

  // ---------- adding a phone number (profile) ----------

  function addPhoneStep(step) {
    $('form-add-phone').hidden = step !== 'number';
    $('form-add-phone-code').hidden = step !== 'code';
    notice('add-phone-resend-notice', '');
    if (step === 'code') $('add-phone-code').focus();
  }

  function resetAddPhone() {
    addingPhone = null;
    addingPassword = null;
    for (const id of ['add-phone-number', 'add-phone-current', 'add-phone-code']) $(id).value = '';
    $('add-phone-password').hidden = true;
    formError($('form-add-phone'), '');
    formError($('form-add-phone-code'), '');
    addPhoneStep('number');
    $('phone-add').open = false;
  }

  function showAddPhoneCode(result, phone) {
    addingPhone = phone;
    $('add-phone-destination').textContent = (result && result.code_delivery && result.code_delivery.destination) || phone;
    addPhoneStep('code');
  }

  // A session made by a text message alone must prove the account's password to change its number (step-up).
  function addPhoneMessageFor(error) {
    if (error.code === 'reauthentication_required' && hasPassword) return 'To change the phone number, enter your current password too.';
    return sendMessageFor(error, phoneMessageFor);
  }

  onSubmit('form-add-phone', async (form, f) => {
    if (!f.phone.value.trim()) return invalid(form, f.phone, 'Enter your phone number.');
    const phone = phoneNumber(f.phone.value);
    if (!phone) return invalid(form, f.phone, 'Enter the number with its country code, like +14155550123.');
    const body = { phone };
    if (!$('add-phone-password').hidden) {
      if (!f.current_password.value) return invalid(form, f.current_password, 'Enter your current password.');
      body.current_password = f.current_password.value;
    }
    try {
      const result = await authed('POST', '/me/phone', body);
      addingPassword = body.current_password || null;
      f.current_password.value = '';
      $('add-phone-password').hidden = true;
      showAddPhoneCode(result, phone);
    } catch (e) {
      if (e.code === 'reauthentication_required' && hasPassword) $('add-phone-password').hidden = false;
      throw e;
    }
  }, { describe: addPhoneMessageFor, fields: { invalid_request: ['phone'], invalid_credentials: ['current_password'], reauthentication_required: ['current_password'] } });

  onSubmit('form-add-phone-code', async (form, f) => {
    const code = f.code.value.replace(/[\s-]/g, '');
    if (!/^[0-9]{6}$/.test(code)) return invalid(form, f.code, 'Enter the 6-digit code from the text message.');
    await authed('POST', '/me/phone/verify', { phone: addingPhone, code });
    resetAddPhone();
    notice('profile-notice', 'Your phone number is saved.');
    $('phone-add-summary').focus();
    loadProfile();
  }, { describe: phoneMessageFor });

  $('add-phone-resend').addEventListener('click', async () => {
    const button = $('add-phone-resend');
    const form = $('form-add-phone-code');
    button.disabled = true;
    formError(form, '');
    notice('add-phone-resend-notice', '');
    try {
      const body = { phone: addingPhone };
      if (addingPassword) body.current_password = addingPassword;
      const result = await authed('POST', '/me/phone', body);
      showAddPhoneCode(result, addingPhone);
      notice('add-phone-resend-notice', 'A new code is on its way.');
    } catch (e) {
      formError(form, addPhoneMessageFor(e));
    } finally {
      button.disabled = false;
    }
  });

  $('add-phone-change').addEventListener('click', () => {
    const number = $('add-phone-number');
    addingPhone = null;
    formError($('form-add-phone-code'), '');
    $('add-phone-code').value = '';
    addPhoneStep('number');
    number.focus();
  });

  // ---------- passkeys ----------
  //
  // WebAuthn's JSON forms go between the server and the browser as they are: the options through
  // PublicKeyCredential.parse{Request,Creation}OptionsFromJSON and the credential through its toJSON(),
  // with webauthn-json.js's converters where a browser lacks those. Only one WebAuthn request may be
  // pending at a time, so the sign-in screen's autofill request is aborted (and its end awaited)
  // before any other ceremony and when the screen is left.

  // Runs a WebAuthn ceremony: its credential, or null when the user cancelled it (or it timed out: the
  // browser does not say which, and neither is alarming). Other failures become an ApiError to show.
  async function ceremony(run) {
    await stopAutofill();
    try {
      return await run();
    } catch (e) {
      const name = e && e.name;
      if (name === 'NotAllowedError' || name === 'AbortError') return null;
      if (name === 'InvalidStateError') throw new ApiError('passkey_exists', 'This device already has a passkey for your account.', 0);
      if (name === 'SecurityError') throw new ApiError('passkey_unavailable', 'Passkeys do not work on this address.', 0);
      throw new ApiError('passkey_failed', 'The passkey could not be used. Please try again.', 0);
    }
  }

  // The server's own words for a passkey it refused ("The passkey could not be verified."), not the password's.
  function passkeyMessageFor(error) {
    if (error.code === 'invalid_credentials') return error.message || 'The passkey could not be verified.';
    return messageFor(error);
  }

  // A refusal is about no field: the message takes the focus.
  const PASSKEY_FORM = { describe: passkeyMessageFor, fields: { invalid_credentials: [], invalid_request: [] } };

  async function finishPasskeySignIn(credential) {
    keep(await api('POST', '/auth/passkey/signin', credentialJSON(credential)));
    notice('signin-notice', '');
    show('profile');
  }

  // "Sign in with a passkey": no email, so the authenticator offers its discoverable credentials.
  async function passkeySignIn() {
    const options = await api('POST', '/auth/passkey/options', {});
    const credential = await ceremony(() => navigator.credentials.get({ publicKey: requestOptions(options) }));
    if (!credential) {
      armAutofill();
      return;
    }
    await finishPasskeySignIn(credential);
  }

  // Passkeys in the email field's autofill: a conditional request waits in the background until the user
  // picks one there. A fresh one replaces it before its challenge expires (the server's last 5 minutes).
  // After a refusal it is not renewed until the screen is shown again or a ceremony is cancelled.
  const AUTOFILL_RENEW_MS = 4 * 60 * 1000;

  function armAutofill() {
    if (!autofillReady || $('screen-signin').hidden) return;
    if (autofill) {
      if (autofill.controller.signal.aborted) autofill.settled.then(armAutofill); // one being stopped: after it ends
      return;
    }
    const entry = { controller: new AbortController(), timer: null };
    autofill = entry;
    const form = $('form-signin');
    form.dataset.passkeyAutofill = 'waiting'; // for tests and style sheets: a request is pending
    entry.settled = waitForAutofill(entry).finally(() => {
      clearTimeout(entry.timer);
      if (autofill === entry) {
        autofill = null;
        delete form.dataset.passkeyAutofill;
      }
    });
    entry.settled.then((credential) => {
      if (credential) attempt(form, () => finishPasskeySignIn(credential), PASSKEY_FORM);
    });
  }

  async function waitForAutofill(entry) {
    try {
      const options = await api('POST', '/auth/passkey/options', {});
      if (entry.controller.signal.aborted) return null;
      entry.timer = setTimeout(() => { stopAutofill().then(armAutofill); }, AUTOFILL_RENEW_MS);
      return await navigator.credentials.get({ mediation: 'conditional', publicKey: requestOptions(options), signal: entry.controller.signal });
    } catch (e) {
      return null; // aborted, or declined by the browser, or the server unreachable: the button still works
    }
  }

  async function stopAutofill() {
    const entry = autofill;
    if (!entry) return;
    entry.controller.abort();
    await entry.settled;
  }

  // ----- the profile's list -----

  let confirmations = 0; // ids for the remove confirmations' questions

  async function loadPasskeys() {
    const error = $('passkeys-error');
    try {
      const answer = await authed('GET', '/me/passkeys');
      const list = $('passkey-list');
      list.replaceChildren();
      (answer.passkeys || []).forEach((passkey) => {
        list.appendChild(passkeyItem(passkey.id, passkey.name, passkey.created_at, passkey.last_used_at, passkey.flagged));
      });
      list.hidden = list.children.length === 0;
      $('passkeys-empty').hidden = !list.hidden;
      error.hidden = true;
    } catch (e) {
      if (endedSession(e)) return;
      error.textContent = messageFor(e);
      error.hidden = false;
    }
  }

  function element(tag, className, text) {
    const el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  }

  function button(text, className) {
    const el = element('button', className, text);
    el.type = 'button';
    return el;
  }

  function passkeyItem(id, name, createdAt, lastUsedAt, flagged) {
    const item = element('li', 'passkey' + (flagged ? ' flagged' : ''));
    const about = element('div', 'passkey-about');
    about.append(element('span', 'passkey-name', name));
    const created = new Date(createdAt).toLocaleDateString();
    const used = lastUsedAt ? 'last used ' + new Date(lastUsedAt).toLocaleDateString() : 'not used yet';
    about.append(element('span', 'hint', `Created ${created}, ${used}`));
    if (flagged) about.append(element('span', 'flag', 'Blocked: its counter went backwards — remove it'));
    const actions = element('div', 'passkey-actions');
    const remove = button('Remove');
    remove.setAttribute('aria-label', `Remove passkey ${name}`);
    actions.append(remove);
    // Removing asks first, in the row: the question, then "Yes, remove" (focused) and "Keep".
    const confirm = element('div', 'passkey-confirm');
    confirm.hidden = true;
    const question = element('span', 'question', `Remove “${name}”? You will no longer sign in with it.`);
    question.id = 'passkey-confirm-' + (++confirmations);
    const yes = button('Yes, remove', 'destructive');
    yes.setAttribute('aria-describedby', question.id);
    const keepIt = button('Keep');
    confirm.append(question, yes, keepIt);
    const asking = (on) => {
      actions.hidden = on;
      confirm.hidden = !on;
      (on ? yes : remove).focus();
    };
    remove.addEventListener('click', () => asking(true));
    keepIt.addEventListener('click', () => asking(false));
    confirm.addEventListener('keydown', (event) => { if (event.key === 'Escape') asking(false); });
    yes.addEventListener('click', () => removePasskey(id, name, confirm));
    item.append(about, actions, confirm);
    return item;
  }

  async function removePasskey(id, name, confirm) {
    const error = $('passkeys-error');
    const buttons = confirm.querySelectorAll('button');
    buttons.forEach((b) => { b.disabled = true; });
    notice('passkeys-notice', '');
    error.hidden = true;
    try {
      await authed('DELETE', `/me/passkeys/${encodeURIComponent(id)}`);
      notice('passkeys-notice', `The passkey “${name}” is removed.`);
      $('passkeys-heading').focus();
      await loadPasskeys();
    } catch (e) {
      if (endedSession(e)) return;
      buttons.forEach((b) => { b.disabled = false; });
      error.textContent = messageFor(e);
      error.hidden = false;
      error.focus();
    }
  }

  onSubmit('form-passkey-add', async (form, f) => {
    notice('passkeys-notice', '');
    const options = await authed('POST', '/me/passkeys/options');
    const credential = await ceremony(() => navigator.credentials.create({ publicKey: creationOptions(options) }));
    if (!credential) return; // cancelled: nothing to say
    const body = credentialJSON(credential);
    if (f.name.value.trim()) body.name = f.name.value.trim();
    const passkey = await authed('POST', '/me/passkeys', body);
    f.name.value = '';
    notice('passkeys-notice', 'The passkey “' + passkey.name + '” is added. Next time, sign in with it.');
    await loadPasskeys();
  }, { describe: passkeyMessageFor, fields: { invalid_request: ['name'], invalid_credentials: [] } });

  function resetPasskeys() {
    $('passkey-list').replaceChildren();
    $('passkeys-empty').hidden = true;
    $('passkeys-error').hidden = true;
    notice('passkeys-notice', '');
    $('passkey-name').value = '';
    formError($('form-passkey-add'), '');
  }

  async function setUpPasskeys() {
    if (!PASSKEYS) return;
    $('passkey-signin-panel').hidden = false;
    $('passkeys').hidden = false;
    $('passkey-signin').addEventListener('click', () => attempt($('form-signin'), passkeySignIn, PASSKEY_FORM));
    let available = false;
    try {
      available = typeof PublicKeyCredential.isConditionalMediationAvailable === 'function' && await PublicKeyCredential.isConditionalMediationAvailable();
    } catch (e) { /* no autofill */ }
    if (!available) return;
    $('signin-email').setAttribute('autocomplete', 'username webauthn');
    autofillReady = true;
    armAutofill();
  }

  async function signOut(everywhere) {
    const current = session;
    try {
      if (everywhere) await authed('POST', '/auth/signout/all');
      else if (current) await api('POST', '/auth/signout', { refresh_token: current.refresh });
    } catch (e) { /* signed out here regardless */ }
    forget();
    notice('signin-notice', everywhere ? 'You are signed out on every device.' : 'You are signed out.');
    show('signin');
  }
  $('signout').addEventListener('click', () => signOut(false));
  $('signout-all').addEventListener('click', () => signOut(true));

  onSubmit('form-delete', async (form, f) => {
    if (!f.confirm.checked) return invalid(form, f.confirm, 'Tick the box to confirm.');
    await authed('DELETE', '/me');
    f.confirm.checked = false;
    forget();
    notice('signin-notice', 'Your account was deleted.');
    show('signin');
  });

  // ---------- the authenticator app (profile) ----------
  //
  // GET /me/mfa says whether an app is on. "Set up" asks for a secret (POST /me/mfa/totp), shows it as a
  // QR code (qr.js) and as text, and confirms it with the app's first code, which answers ten recovery
  // codes, shown once. With an app on, new recovery codes and removing the app each ask for a current code.

  let mfaView = 'hidden'; // 'off', 'enrol', 'codes' or 'on'
  let mfaStatus = null; // the last GET /me/mfa answer

  function showMfa(view, focus) {
    mfaView = view;
    $('mfa').hidden = view === 'hidden';
    $('form-mfa-start').hidden = view !== 'off';
    $('mfa-enrol').hidden = view !== 'enrol';
    $('mfa-codes').hidden = view !== 'codes';
    $('mfa-on').hidden = view !== 'on';
    if (view !== 'enrol') clearEnrolment();
    if (view !== 'codes') clearCodes();
    if (view === 'on') manage(null);
    describeMfa();
    if (focus) $(focus).focus();
  }

  function describeMfa() {
    const status = mfaStatus;
    let text = '';
    if (status && status.totp_enabled) {
      const since = status.totp_enabled_at ? ' since ' + new Date(status.totp_enabled_at).toLocaleDateString() : '';
      const left = status.recovery_codes_left;
      text = `On${since}: signing in asks for a code from your app (a passkey is enough on its own). ` +
        (left === 1 ? '1 recovery code left.' : `${left} recovery codes left.`) + (left <= 3 ? ' Make new ones soon.' : '');
    } else if (status) {
      text = 'Off. With an authenticator app (such as Google Authenticator, 1Password or your phone\u2019s passwords app), ' +
        'signing in also asks for a 6-digit code from your phone.';
    }
    $('mfa-status').textContent = text;
  }

  async function loadMfa() {
    const error = $('mfa-load-error');
    try {
      const status = await authed('GET', '/me/mfa');
      mfaStatus = { totp_enabled: status.totp_enabled, totp_enabled_at: status.totp_enabled_at, recovery_codes_left: status.recovery_codes_left };
      error.hidden = true;
      // Enrolment or the new codes on screen stay there; the status line follows.
      if (mfaView === 'enrol' || mfaView === 'codes') describeMfa();
      else showMfa(mfaStatus.totp_enabled ? 'on' : 'off');
    } catch (e) {
      if (endedSession(e)) return;
      if (e.code === 'provider_disabled') { // the identity provider (Cognito) keeps the second factor
        showMfa('hidden');
        return;
      }
      $('mfa').hidden = false;
      error.textContent = messageFor(e);
      error.hidden = false;
    }
  }

  function resetMfa() {
    mfaStatus = null;
    showMfa('hidden');
    notice('mfa-notice', '');
    $('mfa-load-error').hidden = true;
    for (const id of ['form-mfa-start', 'form-mfa-confirm', 'form-mfa-regenerate', 'form-mfa-remove']) {
      const form = $(id);
      for (const input of form.querySelectorAll('input')) input.value = '';
      formError(form, '');
    }
  }

  // The secret, the QR code and the link leave the page once enrolment ends either way.
  function clearEnrolment() {
    $('mfa-qr').replaceChildren();
    $('mfa-secret').textContent = '';
    $('mfa-uri').setAttribute('href', '#');
    $('mfa-qr-unavailable').hidden = true;
    notice('mfa-secret-notice', '');
  }

  function clearCodes() {
    $('mfa-codes-list').replaceChildren();
    notice('mfa-codes-notice', '');
    $('mfa-codes-download').setAttribute('href', '#');
  }

  // The key in groups of four for reading it out; apps take it with or without the spaces.
  function grouped(secret) {
    return secret.replace(/(.{4})(?=.)/g, '$1 ');
  }

  onSubmit('form-mfa-start', async () => {
    notice('mfa-notice', '');
    let enrolment;
    try {
      enrolment = await authed('POST', '/me/mfa/totp');
    } catch (e) {
      if (e.code !== 'conflict') throw e;
      await loadMfa(); // turned on elsewhere (another tab): show it as it is, and say so
      notice('mfa-notice', messageFor(e));
      $('mfa-heading').focus();
      return;
    }
    showMfa('enrol');
    const frame = $('mfa-qr');
    try {
      frame.appendChild(window.GatehouseQR.svg(enrolment.otpauth_uri, `QR code for ${appName()}: scan it with your authenticator app`));
    } catch (e) {
      $('mfa-qr-unavailable').hidden = false; // qr.js did not load: the key below still works
    }
    $('mfa-secret').textContent = grouped(enrolment.secret);
    $('mfa-secret').dataset.secret = enrolment.secret;
    $('mfa-uri').setAttribute('href', enrolment.otpauth_uri);
    $('mfa-enrol-heading').focus();
  });

  $('mfa-enrol-cancel').addEventListener('click', () => {
    formError($('form-mfa-confirm'), '');
    $('mfa-confirm-code').value = '';
    showMfa('off', 'mfa-setup');
  });

  onSubmit('form-mfa-confirm', async (form, f) => {
    const code = appCode(f.code);
    if (!/^[0-9]{6}$/.test(code)) return invalid(form, f.code, 'Enter the 6-digit code your authenticator app shows.');
    const answer = await sendCode('POST', '/me/mfa/totp/verify', { code });
    accepted(code);
    f.code.value = '';
    showCodes(answer.recovery_codes, 'Your authenticator app is on. Next time you sign in, enter the code it shows.');
  }, { describe: appCodeMessageFor, fields: { not_found: [] } });

  function showCodes(codes, message) {
    const since = (mfaStatus && mfaStatus.totp_enabled_at) || new Date().toISOString();
    mfaStatus = { totp_enabled: true, totp_enabled_at: since, recovery_codes_left: codes.length };
    showMfa('codes');
    const list = $('mfa-codes-list');
    for (const code of codes) list.appendChild(element('li', 'code', code));
    const text = `${appName()} recovery codes (each works once):\n\n${codes.join('\n')}\n`;
    // A data: URL, not a blob: one: the download is the link's own (the CSP's connect-src is only 'self').
    $('mfa-codes-download').setAttribute('href', 'data:text/plain;charset=utf-8,' + encodeURIComponent(text));
    notice('mfa-notice', message);
    $('mfa-codes-heading').focus();
    loadMfa();
  }

  async function copy(text, noticeId, done) {
    try {
      await navigator.clipboard.writeText(text);
      notice(noticeId, done);
    } catch (e) {
      notice(noticeId, 'Copying is not allowed here: select the text and copy it yourself.');
    }
  }

  $('mfa-secret-copy').addEventListener('click', () => copy($('mfa-secret').dataset.secret || '', 'mfa-secret-notice', 'The key is copied.'));
  $('mfa-codes-copy').addEventListener('click', () => {
    const codes = Array.from($('mfa-codes-list').children, (li) => li.textContent);
    copy(codes.join('\n'), 'mfa-codes-notice', 'The recovery codes are copied.');
  });
  $('mfa-codes-done').addEventListener('click', () => {
    notice('mfa-notice', '');
    showMfa(mfaStatus && mfaStatus.totp_enabled ? 'on' : 'off', 'mfa-heading');
  });

  // "New recovery codes" and "Remove" each open their form, asking for a current code.
  function manage(which) {
    for (const name of ['regenerate', 'remove']) {
      const form = $('form-mfa-' + name);
      form.hidden = name !== which;
      if (name !== which) {
        form.elements.code.value = '';
        formError(form, '');
      }
    }
    $('mfa-actions').hidden = which !== null;
    if (which) $(`mfa-${which}-code`).focus();
  }

  $('mfa-regenerate').addEventListener('click', () => { notice('mfa-notice', ''); manage('regenerate'); });
  $('mfa-remove').addEventListener('click', () => { notice('mfa-notice', ''); manage('remove'); });
  for (const cancel of document.querySelectorAll('#mfa .mfa-cancel')) {
    cancel.addEventListener('click', () => {
      const which = cancel.closest('form').id.replace('form-mfa-', '');
      manage(null);
      $('mfa-' + which).focus();
    });
  }

  onSubmit('form-mfa-regenerate', async (form, f) => {
    const code = appCode(f.code);
    if (!/^[0-9]{6}$/.test(code)) return invalid(form, f.code, 'Enter the 6-digit code your authenticator app shows.');
    const answer = await sendCode('POST', '/me/mfa/recovery-codes', { code });
    accepted(code);
    f.code.value = '';
    showCodes(answer.recovery_codes, 'New recovery codes are made; the old ones no longer work.');
  }, { describe: appCodeMessageFor, fields: { not_found: [] } });

  onSubmit('form-mfa-remove', async (form, f) => {
    const code = appCode(f.code);
    if (!/^[0-9]{6}$/.test(code)) return invalid(form, f.code, 'Enter the 6-digit code your authenticator app shows.');
    await sendCode('DELETE', '/me/mfa/totp', { code });
    accepted(code);
    f.code.value = '';
    mfaStatus = { totp_enabled: false, totp_enabled_at: null, recovery_codes_left: 0 };
    showMfa('off', 'mfa-heading');
    notice('mfa-notice', 'The authenticator app is removed: signing in no longer asks for its code.');
    loadMfa();
  }, { describe: appCodeMessageFor, fields: { not_found: [] } });

  // ---------- where you're signed in, and changing the email (profile) ----------
  //
  // The user's sessions, each with a "Sign out" that ends it on the server at once (the current one
  // signs this page out too); and the email change: the new address (with the current password when
  // the account has one), then the code mailed to the new address. A server on Amazon Cognito answers
  // not_supported: the list is not shown.

  const METHOD_WORDS = { password: 'password', google: 'Google', apple: 'Apple', phone: 'text message', passkey: 'passkey', otp: 'authenticator code' };

  function methodWords(method) {
    return (method || '').split('+').map((part) => METHOD_WORDS[part] || part).join(' and ');
  }

  async function loadDevices() {
    const error = $('devices-error');
    try {
      const answer = await authed('GET', '/me/sessions');
      const list = $('device-list');
      list.replaceChildren();
      (answer.sessions || []).forEach((s) => {
        list.appendChild(deviceItem({
          id: s.id, device: s.device, current: s.current, method: s.method, clientAddress: s.client_address,
          createdAt: s.created_at, lastRefreshedAt: s.last_refreshed_at,
        }));
      });
      $('devices').hidden = false;
      error.hidden = true;
    } catch (e) {
      if (e.code === 'not_supported') { $('devices').hidden = true; return; }
      if (endedSession(e)) return;
      $('devices').hidden = false;
      error.textContent = messageFor(e);
      error.hidden = false;
    }
  }

  function deviceItem(s) {
    const item = element('li', 'device');
    const about = element('div', 'device-about');
    const name = element('span', 'device-name', s.device);
    if (s.current) name.append(' ', element('span', 'this', '(this device)'));
    about.append(name);
    const active = new Date(s.lastRefreshedAt || s.createdAt).toLocaleString();
    const from = s.clientAddress ? `, from ${s.clientAddress}` : '';
    about.append(element('span', 'hint', `Signed in ${new Date(s.createdAt).toLocaleDateString()} with ${methodWords(s.method)}; last active ${active}${from}`));
    const out = button('Sign out');
    out.setAttribute('aria-label', s.current ? 'Sign out of this device' : `Sign out ${s.device}`);
    out.addEventListener('click', () => endDevice(s, out));
    item.append(about, out);
    return item;
  }

  async function endDevice(s, control) {
    const error = $('devices-error');
    control.disabled = true;
    notice('devices-notice', '');
    error.hidden = true;
    try {
      await authed('DELETE', `/me/sessions/${encodeURIComponent(s.id)}`);
      if (s.current) {
        forget();
        notice('signin-notice', 'You are signed out.');
        show('signin');
        return;
      }
      notice('devices-notice', `${s.device} is signed out.`);
      $('devices-heading').focus();
      await loadDevices();
    } catch (e) {
      if (endedSession(e)) return;
      control.disabled = false;
      error.textContent = e.code === 'not_found' ? 'That session had already ended.' : messageFor(e);
      error.hidden = false;
      error.focus();
      if (e.code === 'not_found') loadDevices();
    }
  }

  function resetDevices() {
    $('device-list').replaceChildren();
    $('devices').hidden = true;
    $('devices-error').hidden = true;
    notice('devices-notice', '');
  }

  function emailStep(step) {
    $('form-email').hidden = step !== 'address';
    $('form-email-code').hidden = step !== 'code';
    if (step === 'code') $('email-code').focus();
  }

  function showEmailChange() {
    $('email-password').hidden = !hasPassword;
  }

  function resetEmailChange() {
    for (const id of ['email-new', 'email-current', 'email-code']) $(id).value = '';
    formError($('form-email'), '');
    formError($('form-email-code'), '');
    emailStep('address');
    $('email-change').open = false;
  }

  function emailMessageFor(error) {
    if (error.code === 'reauthentication_required') {
      return hasPassword ? 'Enter your current password to change your email address.' : 'For your security, sign out, sign in again, then change your email address.';
    }
    if (error.code === 'not_supported') return 'Changing the email address is not available on this server.';
    return sendMessageFor(error);
  }

  onSubmit('form-email', async (form, f) => {
    if (!checkEmail(form, f.email)) return;
    const body = { email: f.email.value.trim() };
    if (hasPassword) {
      if (!f.current_password.value) return invalid(form, f.current_password, 'Enter your current password.');
      body.current_password = f.current_password.value;
    }
    const result = await authed('POST', '/me/email', body);
    f.current_password.value = '';
    $('email-destination').textContent = (result && result.code_delivery && result.code_delivery.destination) || body.email;
    emailStep('code');
  }, { describe: emailMessageFor, fields: { invalid_request: ['email'], invalid_credentials: ['current_password'], reauthentication_required: ['current_password'] } });

  onSubmit('form-email-code', async (form, f) => {
    const code = f.code.value.replace(/[\s-]/g, '');
    if (!/^[0-9]{6}$/.test(code)) return invalid(form, f.code, 'Enter the 6-digit code from the email.');
    await authed('POST', '/me/email/verify', { code });
    resetEmailChange();
    notice('profile-notice', 'Your email address is changed. Sign in with the new one from now on.');
    $('email-change').querySelector('summary').focus();
    loadProfile();
  }, { describe: emailMessageFor });

  $('email-other').addEventListener('click', () => {
    formError($('form-email-code'), '');
    $('email-code').value = '';
    emailStep('address');
    $('email-new').focus();
  });

  // ---------- Google and Apple ----------

  function randomNonce() {
    const bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    return toBase64url(bytes);
  }

  async function sha256Hex(text) {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
    return Array.from(new Uint8Array(digest)).map((b) => b.toString(16).padStart(2, '0')).join('');
  }

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = resolve;
      script.onerror = () => reject(new Error('could not load ' + src));
      document.head.appendChild(script);
    });
  }

  function socialError(text) {
    const el = $('social-error');
    el.textContent = text;
    el.hidden = !text;
  }

  async function exchange(path, body) {
    try {
      if (await signedIn(api('POST', path, body))) show('profile');
    } catch (e) {
      socialError(messageFor(e));
    }
  }

  async function setUpGoogle() {
    const slot = $('google-button');
    slot.hidden = false;
    const raw = randomNonce();
    try {
      const hashed = await sha256Hex(raw);
      await loadScript('https://accounts.google.com/gsi/client');
      google.accounts.id.initialize({
        client_id: config.google_client_id,
        nonce: hashed, // Google puts it in the ID token; we send the raw value, the server compares
        callback: (response) => exchange('/auth/google', { id_token: response.credential, nonce: raw }),
      });
      google.accounts.id.renderButton(slot, { theme: 'outline', size: 'large', width: 320, text: 'signin_with' });
    } catch (e) {
      slot.hidden = true;
      socialError('Sign in with Google is unavailable right now. Use your email and password, or try again later.');
    }
  }

  async function setUpApple() {
    const button = $('apple-button');
    const raw = randomNonce();
    try {
      const hashed = await sha256Hex(raw);
      await loadScript('https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js');
      AppleID.auth.init({ clientId: config.apple_services_id, scope: 'name email', redirectURI: config.apple_redirect_uri, usePopup: true, nonce: hashed });
      button.hidden = false;
      button.addEventListener('click', async () => {
        try {
          const result = await AppleID.auth.signIn();
          const name = result.user && result.user.name ? [result.user.name.firstName, result.user.name.lastName].filter(Boolean).join(' ') : undefined;
          await exchange('/auth/apple', { identity_token: result.authorization.id_token, authorization_code: result.authorization.code, nonce: raw, full_name: name });
        } catch (e) {
          if (!(e && e.error === 'popup_closed_by_user')) socialError('Sign in with Apple did not finish. Please try again.');
        }
      });
    } catch (e) {
      socialError('Sign in with Apple is unavailable right now. Use your email and password, or try again later.');
    }
  }

  // ---------- start ----------

  async function start() {
    for (const id of ['app-name', 'foot-name']) $(id).textContent = appName();
    $('phone-panel').hidden = config.phone_sign_in !== true;
    $('phone-add').hidden = config.phone_sign_in !== true;
    showPolicy();
    addRevealButtons();
    setUpPasskeys();
    if (config.google_client_id || config.apple_services_id) {
      $('social').hidden = false;
      if (config.google_client_id) setUpGoogle();
      if (config.apple_services_id) setUpApple();
    }
    window.addEventListener('hashchange', () => show(location.hash.replace(/^#\//, '')));
    const wanted = location.hash.replace(/^#\//, '') || 'signin';
    // A refresh token from earlier in this tab brings the session back.
    if (sessionStorage.getItem(REFRESH_KEY)) {
      try { await refresh(); } catch (e) { /* show sign-in */ }
    }
    show(session ? (wanted === 'signin' ? 'profile' : wanted) : wanted, { keepFocus: true });
  }

  start();
})();
