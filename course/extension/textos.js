// Lo que JupyterLab 4.5 y JupyterLite 0.7 escriben en inglés en la barra de un cuaderno, en español.
//
// Ningún catálogo llega a estas cadenas (docs/traduccion.md): JupyterLab las crea con un traductor nulo
// y JupyterLite escribe una sin traductor. Aquí se les da el traductor que les faltaba:
// - el botón del depurador («Enable Debugger», «Disable Debugger», «Select a kernel that supports
//   debugging…») y el de «More commands» (cuando la barra no cabe): los textos de sus botones se vuelven
//   a traducir con el traductor de la aplicación, que tiene su español en el paquete de idioma;
// - «No Kernel», el nombre del núcleo antes de que arranque: el SessionContext del documento se crea
//   sin traductor;
// - en la versión del navegador, el estado del núcleo de JupyterLite («Click to open kernel logs»), que
//   además no dice nada mientras Pyodide arranca (de 8 a 16 s): el nuestro dice «Preparando Python…».

import { IToolbarWidgetRegistry } from '@jupyterlab/apputils';
import { ITranslator } from '@jupyterlab/translation';
import { Widget } from '@lumino/widgets';

// Las cadenas que JupyterLab pone con un traductor nulo en los botones de la barra de un cuaderno.
const SIN_TRADUCTOR = new Set(['Enable Debugger', 'Disable Debugger',
  'Select a kernel that supports debugging to enable debugger', 'More commands']);
const TEXTOS_DE_BOTON = ['tooltip', 'pressedTooltip', 'disabledTooltip', 'label'];
const ESTADO_DE_JUPYTERLITE = '@jupyterlite/apputils-extension:kernel-status';

function retraducir(barra, trans) {
  for (const boton of barra.children()) {
    const textos = boton.props;
    if (!textos || typeof textos !== 'object') {
      continue;
    }
    let cambiado = false;
    for (const clave of TEXTOS_DE_BOTON) {
      if (SIN_TRADUCTOR.has(textos[clave])) {
        textos[clave] = trans.__(textos[clave]);
        cambiado = true;
      }
    }
    if (cambiado) {
      boton.update();
    }
  }
}

class BarraEnEspanol {
  constructor(translator) {
    this.translator = translator;
    this.trans = translator.load('jupyterlab');
  }

  createNew(panel, contexto) {
    // El traductor que el contexto del documento no le pasa a su sesión (lo usa para «No Kernel»).
    const sesion = contexto.sessionContext;
    sesion.translator = this.translator;
    sesion._trans = this.trans;
    // Los botones llegan a la barra cuando quieren (el del depurador, al conectar con el núcleo).
    const vigia = new MutationObserver(() => retraducir(panel.toolbar, this.trans));
    vigia.observe(panel.toolbar.node, { childList: true });
    retraducir(panel.toolbar, this.trans);
    panel.disposed.connect(() => vigia.disconnect());
  }
}

// ------------------------------------------------------------------ el estado del núcleo de JupyterLite

// Los estados (kernelDisplayStatus) de un núcleo que aún no puede ejecutar nada.
const ARRANCANDO = new Set(['', 'unknown', 'initializing', 'starting', 'restarting', 'autorestarting', 'connecting']);

class EstadoDelNucleo extends Widget {
  constructor(sesion, alPulsar) {
    super();
    this.addClass('jp-KernelStatus-widget');
    this.addClass('curso-estado-del-nucleo');
    this.node.title = 'Pulsa para ver el registro del núcleo';
    this.node.style.cursor = 'pointer';
    this.node.onclick = alPulsar;
    this.icono = document.createElement('span');
    this.texto = document.createElement('span');
    this.texto.className = 'curso-estado-texto';
    this.node.append(this.icono, this.texto);
    this.listo = false;
    this.sesion = sesion;
    sesion.statusChanged.connect(this.pintar, this);
    sesion.connectionStatusChanged.connect(this.pintar, this);
    this.pintar();
  }

  pintar() {
    const estado = this.sesion.kernelDisplayStatus;
    if (estado === 'idle') {
      this.listo = true;
    } else if (ARRANCANDO.has(estado)) {
      this.listo = false;
    }
    const muerto = estado === 'dead';
    this.node.dataset.estado = muerto ? 'detenido' : !this.listo ? 'preparando' : estado === 'idle' ? 'libre' : 'ocupado';
    this.icono.className = muerto ? 'curso-icono-error' : estado === 'idle' && this.listo ? 'curso-icono-bien' : 'curso-icono-girando';
    this.texto.textContent = muerto ? 'Python se ha detenido' : !this.listo ? 'Preparando Python…' : '';
  }

  dispose() {
    this.sesion.statusChanged.disconnect(this.pintar, this);
    this.sesion.connectionStatusChanged.disconnect(this.pintar, this);
    super.dispose();
  }
}

export const textosPlugin = {
  id: 'curso-harness:textos',
  description: 'Los textos en inglés de la barra de un cuaderno, en español; «Preparando Python…» en la versión del navegador.',
  autoStart: true,
  requires: [ITranslator],
  optional: [IToolbarWidgetRegistry],
  activate: async (app, translator, barras) => {
    app.docRegistry.addWidgetExtension('Notebook', new BarraEnEspanol(translator));
    if (!barras || !app.hasPlugin(ESTADO_DE_JUPYTERLITE)) {
      return;
    }
    // El de JupyterLite, primero: así el nuestro es el que queda para «kernelStatus».
    await app.activatePlugin(ESTADO_DE_JUPYTERLITE);
    barras.addFactory('Notebook', 'kernelStatus', panel =>
      new EstadoDelNucleo(panel.sessionContext, () => void app.commands.execute('logconsole:open')));
  }
};
