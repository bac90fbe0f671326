/* Wine 8.0's ucrtbase exports crealf, cimagf, cabsf, cimag, creall and cimagl as stubs that abort
 * when called, and numpy calls them while it loads. The lane points numpy's import of
 * api-ms-win-crt-math-l1-1-0.dll at this DLL (same-length name), which implements those six and
 * forwards every other name to ucrtbase (the .def is generated from numpy's imports). MSVC's
 * _Fcomplex/_Dcomplex/_Lcomplex are structs of two floats/doubles (long double == double). */
typedef struct { float v[2]; } fcomplex;
typedef struct { double v[2]; } dcomplex;

float crealf(fcomplex z) { return z.v[0]; }
float cimagf(fcomplex z) { return z.v[1]; }
float cabsf(fcomplex z)
{
    double re = z.v[0], im = z.v[1];
    return (float)__builtin_sqrt(re * re + im * im);
}
double cimag(dcomplex z) { return z.v[1]; }
double creall(dcomplex z) { return z.v[0]; }
double cimagl(dcomplex z) { return z.v[1]; }
