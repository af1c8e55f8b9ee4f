"""machine.py -- the one line the bench reports print about the machine they ran on."""
import os
import platform


def cpu_model():
    """The CPU's model name from /proc/cpuinfo, else what platform reports."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def describe():
    """'Machine: <cpu>, <n> CPUs, load average a / b / c; Python x.y.z.'"""
    try:
        load = os.getloadavg()
    except OSError:
        load = (float("nan"),) * 3
    return (f"Machine: {cpu_model()}, {os.cpu_count()} CPUs, load average {load[0]:.1f} / "
            f"{load[1]:.1f} / {load[2]:.1f}; Python {platform.python_version()}.")
