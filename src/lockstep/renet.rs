//! The renet transport (`renet` feature): [`LockstepNetwork`] over renet's reliable ordered
//! channel, on netcode's UDP transport. [`renet_host`] and [`renet_guest`] set an app up;
//! [`LockstepRenetPlugin`] moves the messages each update.

use std::collections::BTreeSet;
use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, SystemTime};

use bevy::prelude::*;
use bevy_renet::netcode::{
    ClientAuthentication, NetcodeClientPlugin, NetcodeClientTransport, NetcodeServerPlugin,
    NetcodeServerTransport, ServerAuthentication, ServerConfig,
};
use bevy_renet::renet::{ChannelConfig, ConnectionConfig, DefaultChannel, SendType};
use bevy_renet::{
    RenetClient, RenetClientPlugin, RenetReceive, RenetSend, RenetServer, RenetServerPlugin,
};

use super::network::{LinkEvent, LinkId, LockstepNetwork};
use super::wire::{MAX_PLAYERS, PROTOCOL_VERSION};

/// netcode's protocol id: peers of other applications or lockstep protocols are refused by
/// netcode itself, before [`LockstepPlugin`](super::LockstepPlugin)'s handshake.
pub const NETCODE_PROTOCOL_ID: u64 = 0x666c_6f63_6b00_0000 | PROTOCOL_VERSION as u64;

/// renet's channels with room for a snapshot: the reliable ordered channel (the lockstep's)
/// holds up to 256 MiB unacknowledged, and a connection may send 4 MB an update, so a late
/// joiner's snapshot goes out in a few updates without renet taking the queue for a flood.
pub fn lockstep_connection_config() -> ConnectionConfig {
    let channels = || -> Vec<ChannelConfig> {
        DefaultChannel::config()
            .into_iter()
            .map(|mut channel| {
                if matches!(channel.send_type, SendType::ReliableOrdered { .. }) {
                    channel.max_memory_usage_bytes = 256 * 1024 * 1024;
                }
                channel
            })
            .collect()
    };
    ConnectionConfig {
        available_bytes_per_tick: 4_000_000,
        server_channels_config: channels(),
        client_channels_config: channels(),
    }
}

fn since_epoch() -> Duration {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
}

/// Makes `app` a lockstep host on `socket` (bound already: where guests connect), for up to
/// [`MAX_PLAYERS`]` - 1` guests; add [`LockstepPlugin`](super::LockstepPlugin) with a host role
/// as well.
pub fn renet_host(app: &mut App, socket: UdpSocket) -> std::io::Result<()> {
    let config = ServerConfig {
        current_time: since_epoch(),
        max_clients: MAX_PLAYERS - 1,
        protocol_id: NETCODE_PROTOCOL_ID,
        public_addresses: vec![socket.local_addr()?],
        authentication: ServerAuthentication::Unsecure,
    };
    let transport = NetcodeServerTransport::new(config, socket)?;
    app.add_plugins((RenetServerPlugin, NetcodeServerPlugin, LockstepRenetPlugin))
        .insert_resource(RenetServer::new(lockstep_connection_config()))
        .insert_resource(transport);
    Ok(())
}

/// Makes `app` a lockstep guest of the host at `host`, from `socket` (bound already, any local
/// address); add [`LockstepPlugin`](super::LockstepPlugin) with the guest role as well.
pub fn renet_guest(app: &mut App, socket: UdpSocket, host: SocketAddr) -> std::io::Result<()> {
    let now = since_epoch();
    let authentication = ClientAuthentication::Unsecure {
        protocol_id: NETCODE_PROTOCOL_ID,
        // Any id the host has not seen: the clock's nanoseconds and the socket's port.
        client_id: now.as_nanos() as u64 ^ u64::from(socket.local_addr()?.port()) << 48,
        server_addr: host,
        user_data: None,
    };
    let transport =
        NetcodeClientTransport::new(now, authentication, socket).map_err(std::io::Error::other)?;
    app.add_plugins((RenetClientPlugin, NetcodeClientPlugin, LockstepRenetPlugin))
        .insert_resource(RenetClient::new(lockstep_connection_config()))
        .insert_resource(transport);
    Ok(())
}

/// Moves messages between renet (a [`RenetServer`] on the host, a [`RenetClient`] on a guest)
/// and [`LockstepNetwork`]: after renet receives, and before it sends.
pub struct LockstepRenetPlugin;

impl Plugin for LockstepRenetPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<RenetLinks>()
            .add_systems(PreUpdate, receive_renet.after(RenetReceive))
            .add_systems(PostUpdate, send_renet.before(RenetSend));
    }
}

/// The links reported so far.
#[derive(Resource, Default)]
struct RenetLinks {
    clients: BTreeSet<u64>,
    host_open: bool,
    host_closed: bool,
    /// Links to close on the next update, once what was queued for them has gone out.
    closing: Vec<u64>,
}

fn receive_renet(
    server: Option<ResMut<RenetServer>>,
    client: Option<ResMut<RenetClient>>,
    mut links: ResMut<RenetLinks>,
    mut network: ResMut<LockstepNetwork>,
) {
    if let Some(mut server) = server {
        let clients: BTreeSet<u64> = server.clients_id().into_iter().collect();
        for &id in clients.difference(&links.clients) {
            network.push_event(LinkEvent::Connected(LinkId(id)));
        }
        for &id in links.clients.difference(&clients) {
            network.push_event(LinkEvent::Disconnected(LinkId(id)));
        }
        for &id in &clients {
            while let Some(bytes) = server.receive_message(id, DefaultChannel::ReliableOrdered) {
                network.push_event(LinkEvent::Received(LinkId(id), bytes.to_vec()));
            }
        }
        links.clients = clients;
    } else if let Some(mut client) = client {
        if client.is_connected() && !links.host_open {
            links.host_open = true;
            network.push_event(LinkEvent::Connected(LinkId(0)));
        }
        while let Some(bytes) = client.receive_message(DefaultChannel::ReliableOrdered) {
            network.push_event(LinkEvent::Received(LinkId(0), bytes.to_vec()));
        }
        if client.is_disconnected() && !links.host_closed {
            links.host_closed = true;
            network.push_event(LinkEvent::Disconnected(LinkId(0)));
        }
    }
}

fn send_renet(
    server: Option<ResMut<RenetServer>>,
    client: Option<ResMut<RenetClient>>,
    mut network: ResMut<LockstepNetwork>,
    mut links: ResMut<RenetLinks>,
) {
    let outgoing = network.take_outgoing();
    let closing: Vec<u64> = network
        .take_closing()
        .into_iter()
        .map(|link| link.0)
        .collect();
    let close_now = std::mem::replace(&mut links.closing, closing);
    if let Some(mut server) = server {
        for id in close_now {
            server.disconnect(id);
        }
        for (link, bytes) in outgoing {
            server.send_message(link.0, DefaultChannel::ReliableOrdered, bytes);
        }
    } else if let Some(mut client) = client {
        if !close_now.is_empty() {
            client.disconnect();
        }
        for (_, bytes) in outgoing {
            client.send_message(DefaultChannel::ReliableOrdered, bytes);
        }
    }
}
