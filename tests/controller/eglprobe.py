"""Draw one triangle with Mesa through EGL (surfaceless platform, a pbuffer) and OpenGL ES 2,
as SDL's KMSDRM kiosk draws through EGL, and print the renderer and the pixel drawn:

    RENDERER softpipe
    PIXEL 255 128 64 255

With ``MDWE=1`` the process first forbids itself memory that is writable and executable, or
becomes executable later (``prctl(PR_SET_MDWE)``, the kernel's form of systemd's
``MemoryDenyWriteExecute=yes``). Run by tests/controller/test_ctl_mesa.py; standard library
and ctypes only.
"""

from __future__ import annotations

import ctypes
import os
import sys

EGL_PLATFORM_SURFACELESS_MESA = 0x31DD
EGL_NONE = 0x3038
PBUFFER = (0x3057, 64, 0x3056, 64, EGL_NONE)            # width, height
CONFIG = (0x3040, 0x0004, 0x3033, 0x0001, 0x3024, 8, EGL_NONE)  # ES2, pbuffer, 8-bit red
CONTEXT = (0x3098, 2, EGL_NONE)                          # client version 2
VERTEX = b"attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
FRAGMENT = b"precision mediump float; void main() { gl_FragColor = vec4(1.0, 0.5, 0.25, 1.0); }"


def ints(values: tuple[int, ...]) -> ctypes.Array:
    return (ctypes.c_int * len(values))(*values)


def main() -> int:
    if os.environ.get("MDWE") == "1":
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(65, 1, 0, 0, 0) != 0:  # PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN
            print("NO-MDWE", ctypes.get_errno(), flush=True)
            return 3
    egl = ctypes.CDLL("libEGL.so.1")
    gl = ctypes.CDLL("libGLESv2.so.2")
    vp = ctypes.c_void_p
    egl.eglGetProcAddress.restype = vp
    egl.eglGetProcAddress.argtypes = [ctypes.c_char_p]
    address = egl.eglGetProcAddress(b"eglGetPlatformDisplayEXT")
    if not address:
        print("NO-EGL-PLATFORMS", flush=True)
        return 4
    get_display = ctypes.CFUNCTYPE(vp, ctypes.c_uint, vp, vp)(address)
    egl.eglInitialize.argtypes = [vp, vp, vp]
    egl.eglChooseConfig.argtypes = [vp, vp, vp, ctypes.c_int, vp]
    egl.eglCreatePbufferSurface.restype = vp
    egl.eglCreatePbufferSurface.argtypes = [vp, vp, vp]
    egl.eglCreateContext.restype = vp
    egl.eglCreateContext.argtypes = [vp, vp, vp, vp]
    egl.eglMakeCurrent.argtypes = [vp, vp, vp, vp]
    display = get_display(EGL_PLATFORM_SURFACELESS_MESA, None, None)
    config, count = vp(), ctypes.c_int()
    if not (display and egl.eglInitialize(display, None, None)
            and egl.eglChooseConfig(display, ints(CONFIG), ctypes.byref(config), 1,
                                    ctypes.byref(count)) and count.value):
        print("NO-EGL", hex(egl.eglGetError()), flush=True)
        return 4
    egl.eglBindAPI(0x30A0)  # OpenGL ES
    surface = egl.eglCreatePbufferSurface(display, config, ints(PBUFFER))
    context = egl.eglCreateContext(display, config, None, ints(CONTEXT))
    if not (surface and context and egl.eglMakeCurrent(display, surface, surface, context)):
        print("NO-CONTEXT", hex(egl.eglGetError()), flush=True)
        return 4
    gl.glGetString.restype = ctypes.c_char_p
    print("RENDERER", gl.glGetString(0x1F01).decode(), flush=True)
    program = gl.glCreateProgram()
    for kind, source in ((0x8B31, VERTEX), (0x8B30, FRAGMENT)):
        shader = gl.glCreateShader(kind)
        text = ctypes.c_char_p(source)
        gl.glShaderSource(shader, 1, ctypes.byref(text), None)
        gl.glCompileShader(shader)
        gl.glAttachShader(program, shader)
    gl.glBindAttribLocation(program, 0, b"p")
    gl.glLinkProgram(program)
    gl.glUseProgram(program)
    corners = (ctypes.c_float * 6)(-1, -1, 3, -1, -1, 3)  # a triangle over the whole pbuffer
    gl.glEnableVertexAttribArray(0)
    gl.glVertexAttribPointer(0, 2, 0x1406, 0, 0, corners)
    gl.glViewport(0, 0, 64, 64)
    gl.glClearColor(ctypes.c_float(0), ctypes.c_float(0), ctypes.c_float(0), ctypes.c_float(1))
    gl.glClear(0x4000)
    gl.glDrawArrays(0x0004, 0, 3)
    pixel = (ctypes.c_ubyte * 4)()
    gl.glReadPixels(32, 32, 1, 1, 0x1908, 0x1401, pixel)
    print("PIXEL", *pixel, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
