"""The page's QR encoder (Resources/Web/qr.js) against independent references, in headless Chromium (run by
test_web.py):

  * its module matrices equal segno's (PyPI, pure Python) for the same data, version, level M and mask: short text,
    an otpauth URI, multi-byte UTF-8, the largest input of every version 1-40 and one byte more (the next version),
    and a large input; every mask for most of them;
  * its own choice of mask has the lowest penalty by ISO/IEC 18004 7.8.3's four rules, scored here in Python on
    segno's matrices of all 8 masks;
  * OpenCV's QR decoder (cv2.QRCodeDetector) reads what the page draws (a screenshot of its SVG) and what it encodes
    (its matrix drawn with numpy) back to the text;
  * input past version 40 and a mask that does not exist are refused with a RangeError.

segno 1.6.6 adds a whole 0x00 codeword after the terminator when the data already ends on a codeword boundary
(heuer/segno#148), where ISO/IEC 18004 7.4.10 adds padding bits only to reach that boundary and then the pad
codewords. Both decode to the same text, but the matrices differ; the comparison runs segno with the standard's
padding (the fix proposed in that issue), and checks that the difference is only that.
"""
import io
import json
import time

import cv2
import numpy
import segno
from segno import consts as segno_consts
from segno import encoder as segno_encoder
from selenium.webdriver.common.by import By

from web_harness import Page, Server, check

QUIET = 4
OTPAUTH = ("otpauth://totp/Acme%20Notes:ann%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
           "&issuer=Acme%20Notes&algorithm=SHA1&digits=6&period=30")
MULTI_BYTE = "Grüße, Zoë! 日本語のテキスト ✓ 🎉🔐 — ĀČĒ"


# ---------- the reference ----------

def _standard_padding_bits(buff, version, length):
    """ISO/IEC 18004 7.4.10: zero bits only up to the next codeword boundary (none when already on one)."""
    if version not in (segno_consts.VERSION_M1, segno_consts.VERSION_M3):
        buff.extend([0] * (-length % 8))


def segno_matrix(text, version, mask, standard=True):
    """segno's module matrix (rows of 0/1, no quiet zone) for `text` as UTF-8 bytes, level M, `version`, `mask`."""
    original = segno_encoder.write_padding_bits
    if standard:
        segno_encoder.write_padding_bits = _standard_padding_bits
    try:
        code = segno.make_qr(text, error="m", version=version, mask=mask, mode="byte", encoding="utf-8", boost_error=False)
    finally:
        segno_encoder.write_padding_bits = original
    check(code.version == version and code.mask == mask and code.error == "M", f"segno made {code.designator}, mask {code.mask}")
    return [[int(bool(m)) for m in row] for row in code.matrix]


def byte_capacity(version):
    """The most UTF-8 bytes level M holds in byte mode at `version`, from segno's capacity table (in bits)."""
    bits = segno_consts.SYMBOL_CAPACITY[version][segno_consts.ERROR_LEVEL_M]
    return (bits - 4 - (8 if version < 10 else 16)) // 8


# ---------- ISO/IEC 18004:2015 7.8.3.1, written here independently of qr.js ----------

def penalty(matrix):
    size = len(matrix)
    lines = [list(row) for row in matrix] + [[matrix[r][c] for r in range(size)] for c in range(size)]
    score = 0
    for line in lines:
        # N1: 5 + i modules of one colour in a row: 3 + i.
        run_colour, run = None, 0
        for value in line + [None]:
            if value == run_colour:
                run += 1
                continue
            if run >= 5:
                score += 3 + run - 5
            run_colour, run = value, 1
        # N3: 1011101 with 0000 before or after it (outside the symbol is light): 40 each.
        padded = [0] * 4 + line + [0] * 4
        text = "".join(map(str, padded))
        for i in range(4, len(padded) - 4 - 6):
            if text[i:i + 7] == "1011101" and (text[i - 4:i] == "0000" or text[i + 7:i + 11] == "0000"):
                score += 40
    # N2: each 2x2 block of one colour: 3.
    for r in range(size - 1):
        for c in range(size - 1):
            if matrix[r][c] == matrix[r][c + 1] == matrix[r + 1][c] == matrix[r + 1][c + 1]:
                score += 3
    # N4: 10 per whole 5% the dark share is away from 50%.
    dark = sum(map(sum, matrix))
    score += 10 * (abs(dark * 20 - size * size * 10) // (size * size))
    return score


# ---------- the page's encoder ----------

def js_encode(page, requests):
    """qr.js's encode() in the page for [(text, options)]: [{version, mask, rows}] (rows of 0/1)."""
    answer = page.driver.execute_script("""
        return arguments[0].map(([text, options]) => {
          const code = window.GatehouseQR.encode(text, options || undefined);
          return { version: code.version, mask: code.mask, rows: code.modules.map((row) => row.map((m) => (m ? '1' : '0')).join('')) };
        });""", [[text, options] for text, options in requests])
    for code in answer:
        code["rows"] = [[int(ch) for ch in row] for row in code["rows"]]
    return answer


def js_error(page, text, options):
    return page.driver.execute_script("""
        try { window.GatehouseQR.encode(arguments[0], arguments[1]); return null; }
        catch (e) { return e.name + ': ' + e.message; }""", text, options)


def decode_image(image):
    detector = cv2.QRCodeDetector()
    text, points, _ = detector.detectAndDecode(image)
    return text if points is not None else None


def matrix_image(rows, scale=6):
    size = len(rows) + 2 * QUIET
    image = numpy.full((size, size), 255, numpy.uint8)
    image[QUIET:QUIET + len(rows), QUIET:QUIET + len(rows)] = 255 - 255 * numpy.array(rows, numpy.uint8)
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)


def screenshot_of(element):
    """The element's screenshot as a grey image, enlarged without smoothing so the decoder sees clean edges."""
    element.parent.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    png = numpy.frombuffer(element.screenshot_as_png, numpy.uint8)
    image = cv2.imdecode(png, cv2.IMREAD_GRAYSCALE)
    return cv2.resize(image, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST)


def readings(image):
    """The screenshot as the decoder may read it best: as taken, binarised (a module drawn across a pixel
    boundary is anti-aliased grey), and each framed in white, at two more scales."""
    _, binary = cv2.threshold(image, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    for candidate in (image, binary):
        framed = cv2.copyMakeBorder(candidate, 24, 24, 24, 24, cv2.BORDER_CONSTANT, value=255)
        yield framed
        for scale in (0.5, 1.5):
            yield cv2.resize(framed, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)


def decode_element(element, attempts=5):
    """Reads the QR code on screen; a screenshot taken mid-layout (the section scrolling into view, a busy machine)
    can miss it, so a few fresh screenshots are taken, each read a few ways, before giving up."""
    for attempt in range(attempts):
        for image in readings(screenshot_of(element)):
            text = decode_image(image)
            if text:
                return text
        time.sleep(0.3)
    return None


def render(page, text, label):
    """Draws GatehouseQR.svg(text) in a test box on the page at 300 px; returns the <svg> element."""
    page.driver.execute_script("""
        let box = document.getElementById('qr-test-box');
        if (!box) {
          box = document.createElement('div');
          box.id = 'qr-test-box';
          box.className = 'qr-frame';
          document.querySelector('main').prepend(box);
        }
        box.replaceChildren(window.GatehouseQR.svg(arguments[0], arguments[1]));
        box.firstChild.setAttribute('width', '300');
        box.firstChild.setAttribute('height', '300');""", text, label)
    return page.driver.find_element(By.CSS_SELECTOR, "#qr-test-box svg")


# ---------- the checks ----------

def check_against_segno(page):
    boundary = []
    for version in range(1, 41):
        n = byte_capacity(version)
        boundary += [("b" * n, version), ("c" * (n + 1), version + 1)] if version < 40 else [("d" * n, 40)]
    texts = [("hi", None), (OTPAUTH, None), (MULTI_BYTE, None), ("L" * 2000, None), ("Q" * 1500 + MULTI_BYTE, None)]
    requests = []
    for text, _ in texts:
        requests += [(text, {"mask": mask}) for mask in range(8)]
    for text, version in boundary:
        requests.append((text, {"mask": version % 8}))
    answers = js_encode(page, requests)
    compared = 0
    for (text, options), code in zip(requests, answers):
        size = len(text.encode("utf-8"))
        reference = segno_matrix(text, code["version"], options["mask"])
        smallest = segno.make_qr(text, error="m", mode="byte", encoding="utf-8", boost_error=False).version
        check(code["version"] == smallest, f"{size} bytes: qr.js picked version {code['version']}, segno {smallest}")
        check(code["mask"] == options["mask"], f"{size} bytes: mask {options['mask']} asked, {code['mask']} drawn")
        if code["rows"] != reference:
            diff = sum(a != b for ra, rb in zip(code["rows"], reference) for a, b in zip(ra, rb))
            raise AssertionError(f"{size} bytes, version {code['version']}, mask {options['mask']}: {diff} modules differ from segno's")
        compared += 1
    for (text, version), code in zip(boundary, answers[len(texts) * 8:]):
        check(code["version"] == version, f"{len(text)} bytes belong in version {version}, not {code['version']}")
    check({code["version"] for code in answers} >= set(range(1, 41)), "every version 1-40 was compared")
    # Segno unpatched differs only by its extra codeword: with data ending on a boundary its matrix is another one,
    # still read as the same text.
    quirky = segno_matrix("hello", 1, 0, standard=False)
    ours = js_encode(page, [("hello", {"mask": 0})])[0]["rows"]
    if quirky != ours:
        check(decode_image(matrix_image(quirky)) == decode_image(matrix_image(ours)) == "hello",
              "segno's padding (heuer/segno#148) and the standard's decode alike")
    return compared


def check_mask_choice(page):
    # 40 NUL bytes: a case where N4 (the dark share) decides between masks.
    texts = ["hi", OTPAUTH, MULTI_BYTE, "x" * 100, "W" * 400, "otpauth://totp/" + "y" * 900, "\x00" * 40]
    answers = js_encode(page, [(text, None) for text in texts])
    for text, code in zip(texts, answers):
        scores = [penalty(segno_matrix(text, code["version"], mask)) for mask in range(8)]
        best = scores.index(min(scores))
        check(code["mask"] == best, f"{len(text)} bytes: qr.js chose mask {code['mask']} (penalty {scores[code['mask']]}), "
                                    f"the lowest penalty is mask {best} ({scores})")
        check(code["rows"] == segno_matrix(text, code["version"], code["mask"]), "the chosen mask's matrix is segno's too")
    return len(texts)


def check_decoding(page):
    for text in [OTPAUTH, "otpauth://totp/Acme:bo%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Acme", "hello"]:
        element = render(page, text, "QR code under test")
        check(decode_element(element) == text, f"OpenCV reads the drawn code as the text: {text}")
    svg = render(page, OTPAUTH, "QR code under test")
    check(svg.get_attribute("role") == "img" and svg.get_attribute("aria-label") == "QR code under test", "the SVG is a labelled image")
    check(svg.find_element(By.CSS_SELECTOR, "title").get_attribute("textContent") == "QR code under test", "and has a title")
    view = [int(v) for v in page.driver.execute_script("return arguments[0].getAttribute('viewBox')", svg).split()]
    code = js_encode(page, [(OTPAUTH, None)])[0]
    check(view == [0, 0, len(code["rows"]) + 2 * QUIET, len(code["rows"]) + 2 * QUIET], f"a 4-module quiet zone: {view}")
    check(svg.get_attribute("shape-rendering") == "crispEdges", "module edges stay sharp")
    # Larger codes through their matrices (a screenshot at page size would be too coarse to read at version 25).
    for text in ["x" * 120 + "/" + "z" * 300, "Q" * 600]:
        code = js_encode(page, [(text, None)])[0]
        check(decode_image(matrix_image(code["rows"], scale=4)) == text, f"OpenCV reads version {code['version']} ({len(text)} bytes)")
    # UTF-8: OpenCV gives back the bytes it read; they are the text's UTF-8.
    code = js_encode(page, [(MULTI_BYTE, None)])[0]
    read = decode_image(matrix_image(code["rows"]))
    check(read is not None and (read == MULTI_BYTE or read.encode("latin-1", "replace") == MULTI_BYTE.encode("utf-8")),
          f"OpenCV reads the multi-byte text: {read!r}")


def check_refusals(page):
    too_long = "z" * 2332
    message = js_error(page, too_long, None)
    check(message and message.startswith("RangeError") and "2331" in message, f"past version 40 is refused: {message}")
    check(js_error(page, "z" * 2331, None) is None, "2,331 bytes (version 40's capacity) is not")
    check(js_error(page, "ü" * 1166, None).startswith("RangeError"), "the limit counts UTF-8 bytes (2,332 here)")
    check((js_error(page, "hi", {"mask": 8}) or "").startswith("RangeError"), "mask 8 is refused")
    check((js_error(page, "z" * 100, {"version": 2}) or "").startswith("RangeError"), "a version too small is refused")
    check(js_error(page, "z" * 100, {"version": 12}) is None, "a larger version than needed is allowed")


def qr_encoder():
    server = Server()
    page = Page(server)
    try:
        page.open("/")
        page.screen("signin")
        page.wait.until(lambda d: d.execute_script("return !!window.GatehouseQR"))
        check(page.driver.execute_script("return window.GatehouseQR.MAX_VERSION") == 40, "versions up to 40")
        compared = check_against_segno(page)
        chosen = check_mask_choice(page)
        check_decoding(page)
        check_refusals(page)
        print(f"  qr.js: {compared} matrices equal segno's, {chosen} mask choices have the lowest penalty, OpenCV reads them")
        problems = page.console_problems()
        check(not problems, "browser console: " + "\n".join(problems))
    finally:
        page.quit()
        server.stop()


if __name__ == "__main__":
    qr_encoder()
    print("qr encoder: ok")
