"""machine.py -- what the bench reports share: the line about the machine they ran on, and
writing the report."""
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


def write_report(text, path, tag):
    """Prints the report `text` and writes it to `path` (creating its directory)."""
    print(text)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    print(f"[{tag}] wrote {path}")
