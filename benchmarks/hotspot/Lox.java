import java.util.Locale;

/**
 * What the translated benchmarks need from Lox: its clock() and the way it
 * prints a number (C's printf("%g"): six significant digits, exponent form
 * below 1e-4 and from 1e6 on, no trailing zeros), so that a translation's
 * output can be compared with minivm's by diff.
 */
final class Lox {
    private Lox() {}

    static double clock() {
        return System.nanoTime() / 1e9;
    }

    static String str(double v) {
        if (Double.isNaN(v)) {
            return (Double.doubleToRawLongBits(v) < 0) ? "-nan" : "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == 0) {
            return (1 / v < 0) ? "-0" : "0";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e6) {
            return Long.toString((long) v);
        }
        // %e with 5 decimals gives the exponent after rounding to 6 digits.
        String e = String.format(Locale.ROOT, "%.5e", v);
        int x = Integer.parseInt(e.substring(e.indexOf('e') + 1));
        if (x < -4 || x >= 6) {
            String mantissa = stripZeros(e.substring(0, e.indexOf('e')));
            return mantissa + "e" + (x < 0 ? "-" : "+") + (Math.abs(x) < 10 ? "0" : "") + Math.abs(x);
        }
        return stripZeros(String.format(Locale.ROOT, "%." + (5 - x) + "f", v));
    }

    static void print(double v) {
        System.out.println(str(v));
    }

    static void print(String s) {
        System.out.println(s);
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }
}
