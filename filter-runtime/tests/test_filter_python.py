"""The sandbox runs the interpreter the operator configures (ANTARES_FILTER_PYTHON, sandbox.py --python):
a virtual environment made with --system-site-packages is bound read-only at its own path, and a filter
imports what was installed into it, alongside Debian's packages; nothing else of the host appears.

The package here is installed by hand, as pip leaves one (the module and its .dist-info folder in the
venv's site-packages), so these tests need neither pip nor the package index; the server-side test
(apps/cli/src/commands/filters-env.test.ts) installs one with pip from a local folder."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from conftest import RUNTIME, TEST_LIMITS, require_prerequisites, tiny_locus

SANDBOX = os.path.join(RUNTIME, 'antares_runtime', 'sandbox.py')
CODE = '''import os, sys
import antares.devkit as dk
import envprobe_mod
class EnvProbe(dk.Filter):
    OUTPUT_TAGS = [{'name': 'env_probe', 'description': 'ran with the venv'}]
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'env_seen', 'type': 'str', 'description': 'what the filter saw'}]
    def run(self, locus):
        try:
            open(os.path.join(os.path.dirname(envprobe_mod.__file__), 'evil.py'), 'w').write('x')
            wrote = 'wrote'
        except OSError:
            wrote = 'read-only'
        hidden = [p for p in ('/work', '/root', '/home', '/var') if os.path.exists(p)]
        import numpy
        locus.properties['env_seen'] = json.dumps({'version': envprobe_mod.__version__, 'prefix': sys.prefix,
                                                   'numpy': numpy.__file__, 'hidden': hidden, 'wrote': wrote})
        locus.tag('env_probe')
import json
'''


def make_venv(parent):
    env = os.path.join(parent, 'env')
    made = subprocess.run(['/usr/bin/python3', '-m', 'venv', '--without-pip', '--system-site-packages', env],
                          capture_output=True, text=True)
    if made.returncode != 0:
        message = f'python3 -m venv failed (apt-get install -y python3-venv): {made.stderr.strip()}'
        if os.environ.get('CI') == 'true':
            pytest.fail(message)
        pytest.skip(message)
    site = os.path.join(env, 'lib', f'python{sys.version_info.major}.{sys.version_info.minor}', 'site-packages')
    os.makedirs(os.path.join(site, 'envprobe_mod'))
    with open(os.path.join(site, 'envprobe_mod', '__init__.py'), 'w') as fh:
        fh.write("__version__ = '2.5.0'\n")
    info = os.path.join(site, 'envprobe_mod-2.5.0.dist-info')
    os.makedirs(info)
    files = {'METADATA': 'Metadata-Version: 2.1\nName: envprobe-mod\nVersion: 2.5.0\n', 'top_level.txt': 'envprobe_mod\n',
             'INSTALLER': 'pip\n', 'RECORD': ''}
    for name, text in files.items():
        with open(os.path.join(info, name), 'w') as fh:
            fh.write(text)
    return os.path.join(env, 'bin', 'python')


@pytest.fixture(scope='module')
def venv_python():
    require_prerequisites()
    parent = tempfile.mkdtemp(prefix='antares-venv-')
    os.chmod(parent, 0o755)  # as under /opt: the sandbox's uid reaches it
    try:
        yield make_venv(parent)
    finally:
        shutil.rmtree(parent, ignore_errors=True)


def launch(python, *flags):
    return subprocess.run(['/usr/bin/python3', '-I', '-B', SANDBOX, f'--limits={json.dumps(TEST_LIMITS)}', '--slot=160',
                           f'--python={python}', *flags], capture_output=True, text=True, env={'PATH': '/usr/bin:/bin'},
                          cwd='/', timeout=120)


def test_a_filter_imports_what_the_venv_holds_and_sees_nothing_else(sandboxed_worker, venv_python):
    worker = sandboxed_worker(extra=(f'--python={venv_python}',))
    loaded = worker.load('env', CODE)
    assert loaded['ok'], loaded.get('error')
    reports, _ = worker.run('env', [tiny_locus()])
    assert reports[0]['status'] == 'ok', reports[0].get('error')
    seen = json.loads(reports[0]['new_locus_properties']['env_seen'])
    venv = os.path.dirname(os.path.dirname(venv_python))
    assert seen == {'version': '2.5.0', 'prefix': venv, 'numpy': seen['numpy'], 'hidden': [], 'wrote': 'read-only'}
    assert seen['numpy'].startswith('/usr/lib/python3/dist-packages/')  # Debian's, through --system-site-packages
    assert reports[0]['new_tags'] == ['env_probe']


def test_debian_python_alone_does_not_have_it(sandboxed_worker):
    loaded = sandboxed_worker().load('env', CODE)
    assert not loaded['ok'] and loaded['error']['type'] == 'ModuleNotFoundError'
    assert "this filter imports 'envprobe_mod', which the ANTARES filter environment does not provide" in loaded['error']['message']


def test_the_probe_lists_it_from_inside_the_sandbox(venv_python):
    probed = launch(venv_python, '--probe')
    assert probed.returncode == 0, probed.stderr
    environment = json.loads(probed.stdout)
    assert environment['sandboxed'] and environment['virtual_environment']
    mine = [p for p in environment['packages'] if p['import'] == 'envprobe_mod']
    assert mine == [{'import': 'envprobe_mod', 'name': 'envprobe-mod', 'version': '2.5.0', 'location': 'environment',
                     'debian': '', 'note': '', 'promised': False, 'required': False}]
    numpy = next(p for p in environment['packages'] if p['import'] == 'numpy')
    assert numpy['promised'] and numpy['location'] == 'system' and numpy['version']
    imports = [p['import'] for p in environment['packages']]
    assert len(imports) == len(set(imports)) and not {'json', 'os', 'antares', 'antares_runtime', 'test'} & set(imports)


def test_a_missing_module_names_what_the_operator_installed(sandboxed_worker, venv_python):
    worker = sandboxed_worker(extra=(f'--python={venv_python}',))
    loaded = worker.load('shap', 'import shap\nimport antares.devkit as dk\nclass F(dk.Filter):\n    def run(self, locus):\n        pass\n')
    message = loaded['error']['message']
    assert message.startswith("this filter imports 'shap', which the ANTARES filter environment does not provide; "
                              'available: numpy, scipy, pandas, astropy, statsmodels')
    assert 'the packages installed for filters on this server (envprobe_mod)' in message
    assert message.endswith('the filter environment page (GET /v1/filter_environment) lists every module with its version')


def test_an_interpreter_the_sandbox_cannot_use_is_refused_with_the_reason(venv_python):
    missing = launch('/nonexistent/bin/python3', '--check')
    assert missing.returncode == 127
    assert 'the filter interpreter /nonexistent/bin/python3 does not exist or is not executable' in missing.stderr
    if os.geteuid() != 0:
        return  # a private folder is private from other uids only: the launcher drops root to one
    private = tempfile.mkdtemp(prefix='antares-private-venv-')  # mode 700, like /root
    try:
        python = make_venv(private)
        refused = launch(python, '--check')
        assert refused.returncode == 126
        assert f'needs {private}, which the sandbox user (uid 200160) cannot read' in refused.stderr
    finally:
        shutil.rmtree(private, ignore_errors=True)
